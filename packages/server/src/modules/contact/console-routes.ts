import { contactBody, errorResponse, newsletterBody, okResponse } from '@howl/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findDeveloper } from '../../http/developer-session.js';
import { AppError } from '../../http/errors.js';
import { escapeHtml } from '../mail/mailer.js';
import { ipBucket } from '../../lib/ip.js';
import { consumeOrRefuse, type LimiterFactory } from '../../lib/rate-limits.js';
import type { Developers } from '../developers/service.js';
import type { Contact } from './service.js';

export interface ContactRoutesOptions {
  contact: Contact;
  developers: Developers;
  limiters: LimiterFactory;
  requestsPerIpPerHour: number;
}

const tags = ['contact and newsletter'];
const errors = { 400: errorResponse, 429: errorResponse, 503: errorResponse };
const tokenQuery = z.object({ token: z.string().max(200).default('') });

/** `POST /api/contact`, `POST /api/newsletter`, and the two links newsletter mails carry. */
export const contactRoutes: FastifyPluginAsyncZod<ContactRoutesOptions> = async (app, opts) => {
  const perIp = opts.limiters.create({ name: 'contact-ip', points: opts.requestsPerIpPerHour, durationSeconds: 3600 });
  const limitPerIp = (request: { ip: string }) =>
    consumeOrRefuse(perIp, ipBucket(request.ip), "You've sent too many messages. Please try again later.");

  app.post(
    '/api/contact',
    {
      onRequest: limitPerIp,
      schema: {
        tags,
        summary: 'Send a message to support (a visitor gives an email; a signed-in developer’s own is used)',
        body: contactBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      const developer = await findDeveloper(opts.developers, request);
      const email = developer?.email ?? developer?.username ?? request.body.email;
      if (!email) throw new AppError(400, 'InvalidParameter', 'Please enter a valid email address', { field: 'email' });
      await opts.contact.sendMessage({ email, message: request.body.message, developerId: developer?.userId ?? null });
      return { ok: true as const };
    },
  );

  app.post(
    '/api/newsletter',
    {
      onRequest: limitPerIp,
      schema: {
        tags,
        summary: 'Subscribe to the newsletter: mails a link that confirms it (double opt-in)',
        body: newsletterBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (request) => {
      await opts.contact.subscribe(request.body.email);
      return { ok: true as const };
    },
  );

  // Mail links are opened by people and by link scanners alike: the GET only shows a page, and
  // its button (or a mail client's one-click unsubscribe) POSTs. These POSTs take forms, not JSON.
  await app.register(async (instance) => {
    const links = instance.withTypeProvider<ZodTypeProvider>();
    links.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
      done(null, {}),
    );
    const linkRoute = (summary: string) => ({
      config: { acceptsForms: true },
      schema: { tags, summary, querystring: tokenQuery },
    });

    links.get(
      '/api/newsletter/confirm',
      linkRoute('Page behind the confirmation link: a button that confirms'),
      async (request, reply) =>
        button(
          reply,
          'Confirm your subscription',
          'One click and you will get the Howl newsletter, at most one mail a month.',
          'Confirm',
          `/api/newsletter/confirm?token=${encodeURIComponent(request.query.token)}`,
        ),
    );
    links.post(
      '/api/newsletter/confirm',
      linkRoute('Confirm a subscription, then land on /emailConfirmed'),
      async (request, reply) => {
        if (await opts.contact.confirm(request.query.token)) return reply.redirect('/emailConfirmed', 303);
        return page(
          reply,
          400,
          'This link has expired or was already used',
          'If this address is subscribed already, there is nothing more to do; if not, sign up for the newsletter again to get a new link.',
        );
      },
    );

    links.get(
      '/api/newsletter/unsubscribe',
      linkRoute('Page behind the unsubscribe link: a button that unsubscribes'),
      async (request, reply) =>
        button(
          reply,
          'Unsubscribe from the Howl newsletter',
          'You will get no more newsletter mail from Howl.',
          'Unsubscribe',
          `/api/newsletter/unsubscribe?token=${encodeURIComponent(request.query.token)}`,
        ),
    );
    links.post(
      '/api/newsletter/unsubscribe',
      linkRoute('Unsubscribe (the page button, or RFC 8058 one-click)'),
      async (request, reply) => {
        if (await opts.contact.unsubscribe(request.query.token)) {
          return page(reply, 200, 'You are unsubscribed', 'You will get no more newsletter mail from Howl.');
        }
        return page(
          reply,
          400,
          'This unsubscribe link is not valid',
          'Please use the link from the newest mail you received.',
        );
      },
    );
  });
};

/** A page whose one button POSTs: link scanners open pages, they do not press buttons. */
function button(reply: FastifyReply, title: string, text: string, label: string, action: string) {
  const form = `<form method="post" action="${escapeHtml(action)}"><button type="submit" style="font-size:1.1rem;padding:.5rem 1.5rem">${escapeHtml(label)}</button></form>`;
  return page(reply, 200, title, text, form);
}

/** A small page for a person who followed a link from a mail. */
function page(reply: FastifyReply, status: number, title: string, text: string, extra = '') {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><meta charset="utf-8"><title>${title}</title><main style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto"><h1>${title}</h1><p>${text}</p>${extra}<p><a href="/">Home</a></p></main>`,
    );
}
