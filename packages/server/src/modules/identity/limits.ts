import type { AuthLimits } from '../../config.js';
import { ipBucket } from '../../lib/ip.js';
import { consumeOrRefuse, type LimiterFactory } from '../../lib/rate-limits.js';

const addressKey = (email: string) => email.trim().toLowerCase();

/**
 * The identity limits, one set for every pool (limiter keys carry the pool id): failed sign-ins
 * and codes per account and per network, code mails per account, auth requests per network.
 */
export function identityLimits(limiters: LimiterFactory, limits: AuthLimits) {
  const signInFailures = limiters.create({
    name: 'signin-fail',
    points: limits.signInFailuresPerAccount,
    durationSeconds: limits.signInFailureWindowSeconds,
  });
  const codeFailures = limiters.create({
    name: 'code-fail',
    points: limits.signInFailuresPerAccount,
    durationSeconds: limits.signInFailureWindowSeconds,
  });
  const codeMails = limiters.create({
    name: 'code-mail',
    points: limits.codeMailsPerAccountPerHour,
    durationSeconds: 3600,
  });
  // Per address, across pools: any game's players can be given anyone's address.
  const addressMails = limiters.create({
    name: 'code-mail-address',
    points: limits.codeMailsPerAddressPerHour,
    durationSeconds: 3600,
  });
  const countAddressMail = (email: string, message: string): Promise<void> =>
    consumeOrRefuse(addressMails, addressKey(email), message);
  const refundAddressMail = async (email: string): Promise<void> => {
    await addressMails.reward(addressKey(email), 1);
  };
  const ipRequests = limiters.create({
    name: 'auth-ip',
    points: limits.authRequestsPerIpPerMinute,
    durationSeconds: 60,
  });
  const ipSignInFailures = limiters.create({
    name: 'signin-fail-ip',
    points: limits.signInFailuresPerIp,
    durationSeconds: limits.signInFailureWindowSeconds,
  });

  /**
   * Runs a secret check (password, code) under a per-account attempt limit. The attempt is counted
   * before the check, so parallel requests cannot slip past the limit; a success clears the count.
   */
  async function attempt<T>(
    limiter: typeof codeMails,
    key: string,
    message: string,
    check: () => Promise<T>,
  ): Promise<T> {
    await consumeOrRefuse(limiter, key, message);
    const result = await check();
    await limiter.delete(key);
    return result;
  }

  return {
    /** Counts one request from an IP (or IPv6 /64) against the auth limit. */
    async countIpRequest(ip: string): Promise<void> {
      await consumeOrRefuse(ipRequests, ipBucket(ip), 'Too many requests from your network. Please try again later.');
    },

    /** Checks a password under the per-account failure limit (`accountKey` is `<pool>:<username>`). */
    passwordAttempt: (accountKey: string, message: string, check: () => Promise<void>) =>
      attempt(signInFailures, accountKey, message, check),

    /** A new password was set (by a reset's code, or by the developer): the failures of the old one are forgotten. */
    forgetSignInFailures: (accountKey: string): Promise<boolean> => signInFailures.delete(accountKey),

    /** Checks an emailed code under the per-account failure limit. */
    codeAttempt: (accountKey: string, check: () => Promise<void>) =>
      attempt(codeFailures, accountKey, "You've tried too many codes. Please try again later.", check),

    /**
     * Counts one code mail to the account and one to its address (`email`, null when already
     * counted or none); past either limit, refuses with `message` and counts neither.
     */
    async countCodeMail(accountKey: string, email: string | null, message: string): Promise<void> {
      await consumeOrRefuse(codeMails, accountKey, message);
      if (!email) return;
      try {
        await countAddressMail(email, message);
      } catch (err) {
        await codeMails.reward(accountKey, 1);
        throw err;
      }
    },

    /** Gives back a code mail that never went out (the mail server refused it or was down). */
    async refundCodeMail(accountKey: string, email: string | null): Promise<void> {
      await codeMails.reward(accountKey, 1);
      if (email) await refundAddressMail(email);
    },

    /** Counts one code mail to an address before there is an account to mail: past its limit, refuses. */
    countAddressMail,

    /** Gives back an address's mail counted for an account that was then not made. */
    refundAddressMail,

    /**
     * Counts a sign-in against the caller's network before the check, and gives the point back on
     * success: only failures add up, and parallel guesses cannot slip past.
     */
    async perIpFailures<T>(ip: string | undefined, check: () => Promise<T>): Promise<T> {
      if (ip === undefined) return check();
      const key = ipBucket(ip);
      await consumeOrRefuse(
        ipSignInFailures,
        key,
        'Too many failed sign-ins from your network. Please try again later.',
      );
      const result = await check();
      await ipSignInFailures.reward(key, 1);
      return result;
    },
  };
}

export type IdentityLimits = ReturnType<typeof identityLimits>;
