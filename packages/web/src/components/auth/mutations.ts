import type { DeveloperSession } from '@howl/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { SESSION_KEY } from '../../api/session.js';

type Ok = { ok: true };
type SignUpAnswer = { email: string; confirmed: false; codeDeliveryDestination: string };

/** A new session replaces the old one; data cached for another developer goes. */
function useStartSession() {
  const client = useQueryClient();
  return (session: DeveloperSession) => {
    client.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
    client.setQueryData(SESSION_KEY, session);
  };
}

export function useSignIn() {
  const start = useStartSession();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => api<DeveloperSession>('POST', '/api/auth/sign-in', body),
    onSuccess: start,
  });
}

export function useSignUp() {
  return useMutation({
    mutationFn: (body: { email: string; password: string; firstName: string; lastName: string; company?: string }) =>
      api<SignUpAnswer>('POST', '/api/auth/sign-up', body),
  });
}

/** Confirms the emailed code; the server signs the developer in and answers the session. */
export function useConfirmSignUp() {
  const start = useStartSession();
  return useMutation({
    mutationFn: (body: { email: string; code: string }) =>
      api<DeveloperSession>('POST', '/api/auth/confirm-sign-up', body),
    onSuccess: start,
  });
}

export function useResendCode() {
  return useMutation({ mutationFn: (email: string) => api<Ok>('POST', '/api/auth/resend-code', { email }) });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => api<Ok>('POST', '/api/auth/forgot-password', { email }) });
}

export function useConfirmForgotPassword() {
  return useMutation({
    mutationFn: (body: { email: string; code: string; newPassword: string }) =>
      api<Ok>('POST', '/api/auth/confirm-forgot-password', body),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { oldPassword: string; newPassword: string }) =>
      api<Ok>('POST', '/api/auth/change-password', body),
  });
}

export function useSendContact() {
  return useMutation({
    mutationFn: (body: { email?: string; message: string }) => api<Ok>('POST', '/api/contact', body),
  });
}

/** The email waiting for its sign-up code, kept for the browser session so a reload keeps the code screen. */
export const pendingSignUp = {
  key: 'howl.pendingSignUpEmail',
  get: () => sessionStorage.getItem(pendingSignUp.key) ?? undefined,
  set: (email: string) => sessionStorage.setItem(pendingSignUp.key, email),
  clear: () => sessionStorage.removeItem(pendingSignUp.key),
};
