import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free port of this machine; tests read what Howl sent through it. */
export async function startSmtpServer(): Promise<{
  url: string;
  messages: ReceivedMail[];
  /** The newest 6-digit code mailed to `to`. */
  lastCode(to: string): string;
  /** Waits (up to 5 s) until `count` mails to `to` have arrived: for mail sent after the answer. */
  waitFor(to: string, count?: number): Promise<ReceivedMail[]>;
  /** While true, every mail is refused as a mail server that is down for maintenance refuses it. */
  refusing: boolean;
  close(): Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refusing) {
        const refused = new Error('Service not available, closing transmission channel') as Error & {
          responseCode: number;
        };
        refused.responseCode = 421;
        return callback(refused);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    lastCode(to) {
      const mail = messages.filter((m) => m.to.includes(to)).at(-1);
      // Quoted-printable may break a line anywhere with a soft break (`=` at the end of a line).
      const code = mail?.raw.replace(/=\r?\n/g, '').match(/code is:\s*(\d{6})/)?.[1];
      if (!code) throw new Error(`no code was mailed to ${to}`);
      return code;
    },
    async waitFor(to, count = 1) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const mine = messages.filter((m) => m.to.includes(to));
        if (mine.length >= count) return mine;
        if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) to ${to}, got ${mine.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
