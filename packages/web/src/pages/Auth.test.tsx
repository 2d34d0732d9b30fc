// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionKeys } from '../api/session/keys.js';
import { renderAt } from '../test/render.js';
import { apiError, stubServer } from '../test/server.js';
import { developer as session } from '../test/sessions.js';
import { Auth } from './Auth.js';

// The server is outside a component test: `fetch` is stubbed (see stubServer) with the answers the API documents.

const page = (path = '/auth') => renderAt(path, { '/auth': <Auth />, '/features': <h1>Features home</h1> });

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function fillSignUp(user: ReturnType<typeof userEvent.setup>, email = '  Indie@Example.COM ') {
  await user.type(screen.getByLabelText('First name'), 'Indie');
  await user.type(screen.getByLabelText('Last name'), 'Player');
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), 'Secret-pass-1!');
  await user.type(screen.getByLabelText('Confirm password'), 'Secret-pass-1!');
  await user.click(screen.getByLabelText(/I have read and accept/));
}

describe('/auth sign-up', () => {
  it('goes from the form to the code screen to Sign up complete, signed in', async () => {
    const server = stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/sign-up': [
        200,
        { email: 'indie@example.com', confirmed: false, codeDeliveryDestination: 'indie@example.com' },
      ],
      'POST /api/auth/confirm-sign-up': [200, session],
    });
    const user = userEvent.setup();
    const { client } = page('/auth?mode=signup');
    await fillSignUp(user);
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(server.bodiesOf('POST /api/auth/sign-up')).toEqual([
      { email: 'indie@example.com', password: 'Secret-pass-1!', firstName: 'Indie', lastName: 'Player' },
    ]);
    expect(sessionStorage.getItem('howl.pendingSignUpEmail')).toBe('indie@example.com');
    expect(screen.getByRole('link', { name: 'contact us' })).toHaveAttribute('href', '/contact');

    await user.type(screen.getByLabelText('Confirmation code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Sign up complete' })).toBeInTheDocument();
    expect(server.bodiesOf('POST /api/auth/confirm-sign-up')).toEqual([{ email: 'indie@example.com', code: '123456' }]);
    expect(client.getQueryData(sessionKeys.all)).toEqual(session);
    expect(sessionStorage.getItem('howl.pendingSignUpEmail')).toBeNull();
    expect(screen.getByRole('link', { name: 'Create your first game' })).toHaveAttribute('href', '/createNewGame');
    expect(screen.getByRole('link', { name: 'Go to features' })).toHaveAttribute('href', '/features');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  });

  it('stays on the code screen after a wrong code, and a resend mails a new one', async () => {
    sessionStorage.setItem('howl.pendingSignUpEmail', 'indie@example.com');
    const server = stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/confirm-sign-up': apiError(400, 'CodeMismatch', 'Invalid confirmation code.'),
      'POST /api/auth/resend-code': [200, { ok: true }],
    });
    const user = userEvent.setup();
    page('/auth?mode=confirm');
    // The pending email survives a reload: the code screen shows straight away.
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your confirmation code.');

    await user.type(screen.getByLabelText('Confirmation code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid confirmation code$/);
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByText('A new code is on its way to indie@example.com.')).toBeInTheDocument();
    expect(server.bodiesOf('POST /api/auth/resend-code')).toEqual([{ email: 'indie@example.com' }]);
  });

  it('shows the sign-in form at /auth while a sign-up waits, with a way back to the code screen', async () => {
    stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/sign-up': [
        200,
        { email: 'indie@example.com', confirmed: false, codeDeliveryDestination: 'indie@example.com' },
      ],
    });
    const user = userEvent.setup();
    page('/auth?mode=signup');
    await fillSignUp(user);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();

    // The code screen's own way out, and the menu's Sign in (plain /auth, as after a reload), both reach the form.
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(screen.getByRole('heading', { name: 'Sign in to Howl' })).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    cleanup();
    page();
    expect(screen.getByRole('heading', { name: 'Sign in to Howl' })).toBeInTheDocument();
    expect(screen.getByText(/is waiting for its confirmation code/).closest('[role=status]')).toHaveTextContent(
      'The sign-up of indie@example.com is waiting for its confirmation code. Enter the code',
    );

    await user.click(screen.getByRole('link', { name: 'Enter the code' }));
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText('indie@example.com')).toBeInTheDocument();
  });

  it('shows the first validation message and sends nothing', async () => {
    const server = stubServer({ 'GET /api/auth/whoami': [200, { session: null }] });
    const user = userEvent.setup();
    page('/auth?mode=signup');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your first name and last name.');
    await fillSignUp(user);
    await user.click(screen.getByLabelText(/I have read and accept/));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please read and accept our Terms of service.');
    expect(server.bodiesOf('POST /api/auth/sign-up')).toEqual([]);
  });

  it('maps UsernameExists to the spec sentence and stays on the form', async () => {
    stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/sign-up': apiError(409, 'UsernameExists'),
    });
    const user = userEvent.setup();
    page('/auth?mode=signup');
    await fillSignUp(user);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There is already an account for this email address. Please log in or select Forgot password.',
    );
    expect(screen.getByLabelText('First name')).toBeInTheDocument();
  });
});

describe('/auth sign-in', () => {
  it('sends the lowercased email, sets the session and goes to /features', async () => {
    const server = stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/sign-in': [200, session],
    });
    const user = userEvent.setup();
    const { client } = page();
    await user.type(screen.getByLabelText('Email'), '  INDIE@example.com ');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass-1!');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/features'));
    expect(server.bodiesOf('POST /api/auth/sign-in')).toEqual([
      { email: 'indie@example.com', password: 'Secret-pass-1!' },
    ]);
    expect(client.getQueryData(sessionKeys.all)).toEqual(session);
  });

  it.each(['UserNotFound', 'NotAuthorized'])('shows "Incorrect username or password" for %s', async (code) => {
    stubServer({ 'GET /api/auth/whoami': [200, { session: null }], 'POST /api/auth/sign-in': apiError(401, code) });
    const user = userEvent.setup();
    page();
    await user.type(screen.getByLabelText('Email'), 'indie@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Incorrect username or password$/);
    expect(screen.getByTestId('where')).toHaveTextContent('/auth');
  });

  it('sends an unconfirmed account to the code screen with a fresh code', async () => {
    const server = stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/sign-in': apiError(403, 'UserNotConfirmed'),
      'POST /api/auth/resend-code': [200, { ok: true }],
    });
    const user = userEvent.setup();
    page();
    await user.type(screen.getByLabelText('Email'), 'Indie@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass-1!');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    await waitFor(() =>
      expect(server.bodiesOf('POST /api/auth/resend-code')).toEqual([{ email: 'indie@example.com' }]),
    );
  });

  it('shows on the code screen why a fresh code could not be sent', async () => {
    stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/auth/sign-in': apiError(403, 'UserNotConfirmed'),
      'POST /api/auth/resend-code': apiError(429, 'LimitExceeded', 'Too many attempts. Please try again later.'),
    });
    const user = userEvent.setup();
    page();
    await user.type(screen.getByLabelText('Email'), 'indie@example.com');
    await user.type(screen.getByLabelText('Password'), 'Secret-pass-1!');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
  });

  it('links to /forgotPassword, and switches tabs', async () => {
    stubServer({ 'GET /api/auth/whoami': [200, { session: null }] });
    const user = userEvent.setup();
    page();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgotPassword');
    await user.click(screen.getByRole('tab', { name: 'Sign up' }));
    expect(screen.getByRole('tab', { name: 'Sign up' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Company (optional)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Terms of service' })).toHaveAttribute('href', '/terms');
  });
});
