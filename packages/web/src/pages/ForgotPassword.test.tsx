// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test/render.js';
import { apiError, stubServer } from '../test/server.js';
import { withGames } from '../test/sessions.js';
import { Auth } from './Auth.js';
import { ForgotPassword } from './ForgotPassword.js';

// The server is outside a component test: `fetch` is stubbed (see stubServer) with the answers the API documents.

const page = () => renderAt('/forgotPassword', { '/forgotPassword': <ForgotPassword />, '/auth': <Auth /> });

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Step 2 filled in right and sent, on a page opened there (the email remembered); waits for /auth. */
async function setNewPassword() {
  const user = userEvent.setup();
  page();
  await user.type(screen.getByLabelText('Confirmation code'), '123456');
  await user.type(screen.getByLabelText('New password'), 'New-pass-1!');
  await user.type(screen.getByLabelText('Confirm new password'), 'New-pass-1!');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth'));
}

describe('/forgotPassword', () => {
  it('goes from the email step to the code step, then to /auth with a notice', async () => {
    const server = stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/forgot-password': [200, { ok: true }],
      'POST /api/auth/confirm-forgot-password': [
        apiError(400, 'CodeMismatch', 'Invalid confirmation code.'),
        [200, { ok: true }],
      ],
    });
    const user = userEvent.setup();
    page();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your email address.');
    await user.type(screen.getByLabelText('Email'), 'indie@example');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    await user.type(screen.getByLabelText('Email'), '.COM');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeInTheDocument();
    expect(server.bodiesOf('POST /api/auth/forgot-password')).toEqual([{ email: 'indie@example.com' }]);

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your confirmation code.');
    await user.type(screen.getByLabelText('Confirmation code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'New-pass-1!');
    await user.type(screen.getByLabelText('Confirm new password'), 'New-pass-2!');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent("The two new passwords you entered don't match.");

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'New-pass-1!');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The confirmation code you entered is incorrect. Please try again.',
    );

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth'));
    expect(server.bodiesOf('POST /api/auth/confirm-forgot-password').at(-1)).toEqual({
      email: 'indie@example.com',
      code: '123456',
      newPassword: 'New-pass-1!',
    });
    expect(
      await screen.findByText('Your password has been reset. Please sign in with your new password.'),
    ).toBeVisible();
  });

  it.each([
    [
      'UserNotFound',
      "We can't request a new password for this user. If this problem persists please contact us and we'll help you get this sorted.",
    ],
    ['LimitExceeded', "You've requested a password change too often. Please try again later."],
    [
      'ServiceUnavailable',
      "Something wrong happened. If this problem persists please contact us and we'll help you get this sorted.",
    ],
  ])('maps %s on the email step to the spec sentence', async (code, text) => {
    stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/forgot-password': apiError(400, code),
    });
    const user = userEvent.setup();
    page();
    await user.type(screen.getByLabelText('Email'), 'indie@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByLabelText('Confirmation code')).not.toBeInTheDocument();
  });

  it('keeps step 2 and its email across a reload, until another email is chosen', async () => {
    stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/forgot-password': [200, { ok: true }],
    });
    const user = userEvent.setup();
    page();
    await user.type(screen.getByLabelText('Email'), 'Indie@Example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeInTheDocument();

    // A reload is a fresh page over the same tab's session storage.
    cleanup();
    page();
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeInTheDocument();
    expect(screen.getByText('indie@example.com')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirmation code')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Use another email' }));
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
    cleanup();
    page();
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('forgets the email once the new password is set', async () => {
    sessionStorage.setItem('howl.pendingResetEmail', 'indie@example.com');
    stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/confirm-forgot-password': [200, { ok: true }],
    });
    await setNewPassword();
    expect(sessionStorage.getItem('howl.pendingResetEmail')).toBeNull();
  });

  it('signs this browser out too once the new password is set (the reset ended every session)', async () => {
    sessionStorage.setItem('howl.pendingResetEmail', 'indie@example.com');
    stubServer({
      // Signed in when the page loads; the server ends the session with the reset.
      'GET /api/auth/whoami': [
        [200, { session: withGames() }],
        [200, { session: null }],
      ],
      'POST /api/auth/confirm-forgot-password': [200, { ok: true }],
    });
    await setNewPassword();
    expect(
      await screen.findByText('Your password has been reset. Please sign in with your new password.'),
    ).toBeVisible();
    expect(screen.queryByText(/You are signed in as/)).toBeNull();
  });

  it('maps InvalidPassword on the code step to the spec sentence', async () => {
    stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/forgot-password': [200, { ok: true }],
      'POST /api/auth/confirm-forgot-password': apiError(400, 'InvalidPassword'),
    });
    const user = userEvent.setup();
    page();
    await user.type(screen.getByLabelText('Email'), 'indie@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.type(await screen.findByLabelText('Confirmation code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'weak');
    await user.type(screen.getByLabelText('Confirm new password'), 'weak');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The password you entered is invalid. Please try again.',
    );
  });
});
