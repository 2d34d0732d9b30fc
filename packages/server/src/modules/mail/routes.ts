import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OutboxMessage } from './mailer.js';

const outboxResponse = z.object({
  messages: z.array(z.object({ to: z.string(), subject: z.string(), text: z.string(), sent_at: z.string() })),
});

/** `GET /api/dev/outbox`: mail that would have been sent, newest first. Registered only outside production without SMTP. */
export const outboxRoutes: FastifyPluginAsyncZod<{ messages: () => OutboxMessage[] }> = async (app, opts) => {
  app.get(
    '/api/dev/outbox',
    {
      schema: {
        tags: ['development'],
        summary: 'Mail written instead of sent (development only, no SMTP_URL)',
        response: { 200: outboxResponse },
      },
    },
    async () => ({ messages: opts.messages() }),
  );
};
