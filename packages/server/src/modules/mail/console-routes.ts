import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '@howl/contract';
import { errorBody } from '../../http/errors.js';
import { isLoopback } from '../../lib/ip.js';
import type { OutboxMessage } from './mailer.js';

const outboxResponse = z.object({
  messages: z.array(
    z.object({
      from: z.string(),
      reply_to: z.string().nullable(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      sent_at: z.string(),
    }),
  ),
});

/** Headers a proxy adds for the client it relays (standard, de facto and vendor ones). */
const FORWARDING_HEADER =
  /^(forwarded|via|x-forwarded(-.*)?|x-real-ip|x-client-ip|x-cluster-client-ip|x-original-forwarded-for|true-client-ip|cf-connecting-ip|fastly-client-ip|forwarded-for|client-ip)$/;

/**
 * `GET /api/dev/outbox`: mail that would have been sent, newest first. Registered only when DEV_OUTBOX
 * is on (never in production) without SMTP, and answered only to callers on this machine that no proxy
 * relayed: the codes in it open accounts.
 */
export const outboxRoutes: FastifyPluginAsyncZod<{ messages: () => OutboxMessage[] }> = async (app, opts) => {
  app.get(
    '/api/dev/outbox',
    {
      schema: {
        tags: ['development'],
        summary: 'Mail written instead of sent (development only, no SMTP_URL)',
        response: { 200: outboxResponse, 404: errorResponse },
      },
    },
    async (request, reply) => {
      // Both the peer and the client it speaks for (behind a trusted proxy) must be this machine.
      const local = isLoopback(request.ip) && isLoopback(request.socket.remoteAddress ?? '');
      // A proxy on this machine makes every client look local: anything it relayed is refused.
      if (!local || Object.keys(request.headers).some((name) => FORWARDING_HEADER.test(name))) {
        return reply.status(404).send(errorBody('NotFound', 'No such endpoint: GET /api/dev/outbox'));
      }
      return { messages: opts.messages() };
    },
  );
};
