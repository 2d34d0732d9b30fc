// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test/render.js';
import { apiError, stubServer } from '../test/server.js';
import { developer as session } from '../test/sessions.js';
import { ChangePassword } from './ChangePassword.js';
import { Contact } from './Contact.js';

// The server is outside a component test: `fetch` is stubbed (see stubServer) with the answers the API documents.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/changepwd', () => {
  const page = () => renderAt('/changepwd', { '/changepwd': <ChangePassword /> });

  it('asks a signed-out visitor to sign in', async () => {
    stubServer({ 'GET /api/auth/whoami': [200, { session: null }] });
    page();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth');
    expect(screen.queryByLabelText('Old password')).not.toBeInTheDocument();
  });

  it('checks the match, maps the server errors, then shows the message and a Home button', async () => {
    const server = stubServer({
      'GET /api/auth/whoami': [200, { session }],
      'POST /api/auth/change-password': [
        apiError(401, 'NotAuthorized'),
        apiError(400, 'InvalidPassword'),
        apiError(429, 'LimitExceeded'),
        [200, { ok: true }],
      ],
    });
    const user = userEvent.setup();
    page();
    await user.type(await screen.findByLabelText('Old password'), 'Old-pass-1!');
    await user.type(screen.getByLabelText('New password'), 'New-pass-1!');
    await user.type(screen.getByLabelText('Confirm new password'), 'New-pass-1?');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent("The two new passwords you entered don't match.");
    expect(server.bodiesOf('POST /api/auth/change-password')).toEqual([]);

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'New-pass-1!');
    for (const text of [
      'Your old password is incorrect.',
      'Your new password is invalid. Passwords must contain at least 8 characters and feature at least one letter, one number and one symbol.',
      "You've requested a password change too often. Please try again later.",
    ]) {
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      expect(await screen.findByText(text)).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/features');
    expect(server.bodiesOf('POST /api/auth/change-password').at(-1)).toEqual({
      oldPassword: 'Old-pass-1!',
      newPassword: 'New-pass-1!',
    });
  });
});

describe('/contact', () => {
  const page = () => renderAt('/contact', { '/contact': <Contact /> });

  it('asks a visitor for an email and a message, and thanks them', async () => {
    const server = stubServer({
      'GET /api/auth/whoami': [200, { session: null }],
      'POST /api/contact': [
        apiError(429, 'LimitExceeded', 'Too many attempts. Please try again later.'),
        [200, { ok: true }],
      ],
    });
    const user = userEvent.setup();
    page();
    await user.type(await screen.findByLabelText('Email'), 'visitor@');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address');
    await user.type(screen.getByLabelText('Email'), 'Example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a message');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/features');
    expect(server.bodiesOf('POST /api/contact')).toEqual([
      { email: 'visitor@example.com', message: 'Hello' },
      { email: 'visitor@example.com', message: 'Hello' },
    ]);
  });

  it('shows a signed-in developer only the message box and sends no email', async () => {
    const server = stubServer({ 'GET /api/auth/whoami': [200, { session }], 'POST /api/contact': [200, { ok: true }] });
    const user = userEvent.setup();
    page();
    await user.type(await screen.findByLabelText('Message'), 'Hi from a developer');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeInTheDocument();
    expect(server.bodiesOf('POST /api/contact')).toEqual([{ message: 'Hi from a developer' }]);
  });
});
