import { developerSession, okResponse, signUpResponse, type SignUpBody } from '@howl/contract';
import { useMutation } from '@tanstack/react-query';
import { request } from '../client.js';
import { useReplaceSession } from '../session/mutations.js';

export function useSignIn() {
  const replace = useReplaceSession();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) =>
      request(developerSession, 'POST', '/api/auth/sign-in', body),
    onSuccess: replace,
  });
}

export function useSignUp() {
  return useMutation({
    mutationFn: (body: SignUpBody) => request(signUpResponse, 'POST', '/api/auth/sign-up', body),
  });
}

/** Confirms the emailed code; the server signs the developer in and answers the session. */
export function useConfirmSignUp() {
  const replace = useReplaceSession();
  return useMutation({
    mutationFn: (body: { email: string; code: string }) =>
      request(developerSession, 'POST', '/api/auth/confirm-sign-up', body),
    onSuccess: replace,
  });
}

export function useResendCode() {
  return useMutation({
    mutationFn: (email: string) => request(okResponse, 'POST', '/api/auth/resend-code', { email }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) => request(okResponse, 'POST', '/api/auth/forgot-password', { email }),
  });
}

export function useConfirmForgotPassword() {
  return useMutation({
    mutationFn: (body: { email: string; code: string; newPassword: string }) =>
      request(okResponse, 'POST', '/api/auth/confirm-forgot-password', body),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { oldPassword: string; newPassword: string }) =>
      request(okResponse, 'POST', '/api/auth/change-password', body),
  });
}
