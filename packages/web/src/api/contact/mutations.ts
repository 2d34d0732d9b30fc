import { okResponse } from '@howl/contract';
import { useMutation } from '@tanstack/react-query';
import { request } from '../client.js';

/** Sends a message to the Howl team; a signed-in developer's own email is used. */
export function useSendContact() {
  return useMutation({
    mutationFn: (body: { email?: string; message: string }) => request(okResponse, 'POST', '/api/contact', body),
  });
}
