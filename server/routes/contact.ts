import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CONTACT_MESSAGES as M,
  ContactMessageInput,
  contactFormErrors,
  type ContactMessageAnswer,
} from '../../src/api/contract/contact';
import { fieldErrorAnswer } from '../../src/api/contract/form-rules';
import { findByIdempotencyKey, insertContactMessage } from '../db/contact.repo';
import { HttpError } from '../http-error';
import { withIdempotency, type StoredAnswer } from '../lib/idempotency';
import { queueMessageMails } from '../mail/mails';

/**
 * POST /api/contact-messages: the contact form really sends.
 * Order of checks: rate limit (per client, RATE_LIMIT_PUBLIC_PER_MIN) -> body size (16 KB) and
 * JSON -> Idempotency-Key (a repeat within 24 h gets the first answer) -> honeypot (a filled
 * `website` gets the normal answer, nothing is stored) -> the request's shape (zod) and the
 * form's rules (`contactFormErrors`: 400 with each field's message and code) -> stored. A database failure before the message is stored is a 503
 * with a message (the form keeps what was typed); once the message is stored, the answer is 201 even
 * if the idempotency bookkeeping fails afterwards, so a stored message is never followed by a 5xx.
 */

/** A message of 5000 characters in any script fits easily; anything larger is refused unread. */
export const CONTACT_BODY_LIMIT = 16 * 1024;

const SCOPE = 'contact-message';

const contact: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/contact-messages',
    { bodyLimit: CONTACT_BODY_LIMIT, config: { rateLimit: app.publicRateLimit } },
    async (request, reply) => {
      const body = request.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw new HttpError(400, 'Send the message as a JSON object.');
      }
      const header = request.headers['idempotency-key'];
      const key = (Array.isArray(header) ? header[0] : header) || null;

      let stored: ContactMessageAnswer | null = null;
      const run = async (): Promise<StoredAnswer> => {
        const fields = body as Record<string, unknown>;
        if (typeof fields.website === 'string' && fields.website.trim() !== '') {
          request.log.info('Contact form honeypot filled; nothing stored');
          return { status: 201, body: { message: M.success, message_id: 0 } satisfies ContactMessageAnswer };
        }
        const parsed = ContactMessageInput.safeParse(body);
        if (!parsed.success) {
          const errors: Record<string, string> = {};
          for (const issue of parsed.error.issues)
            errors[String(issue.path[0] ?? 'request')] ??= issue.message;
          return { status: 400, body: { message: 'Please check the highlighted fields.', errors } };
        }
        const input = parsed.data;
        const refused = contactFormErrors(input);
        if (Object.keys(refused).length > 0)
          return { status: 400, body: fieldErrorAnswer('Please check the highlighted fields.', refused, M) };
        let messageId: number;
        try {
          // the acknowledgment and the staff notices are queued with the message, or neither is
          messageId = await app.db.transaction().execute(async (trx) => {
            const id = await insertContactMessage(trx, {
              name: input.name,
              email: input.email,
              company: input.company,
              message: input.message,
              lang: input.lang ?? 'en',
              idempotency_key: key,
            });
            await queueMessageMails(trx, app.config, {
              name: input.name,
              email: input.email,
              lang: input.lang,
            });
            return id;
          });
          app.mail.poke();
        } catch (err) {
          // A concurrent twin with the same key won the race: answer as it did.
          const twin = key ? await findByIdempotencyKey(app.db, key).catch(() => undefined) : undefined;
          if (twin) return { status: 201, body: { message: M.success, message_id: twin.message_id } };
          request.log.error({ err }, 'Contact message could not be stored');
          throw new HttpError(503, 'Your message could not be sent right now. Please try again in a moment.');
        }
        stored = { message: M.success, message_id: messageId };
        return { status: 201, body: stored };
      };

      let answer: StoredAnswer;
      try {
        answer = await withIdempotency(app, request, SCOPE, run);
      } catch (err) {
        if (stored) {
          // The message is safe; only the bookkeeping failed. Never a 5xx after a stored message.
          request.log.warn({ err }, 'Contact message stored, but its idempotency answer was not');
          answer = { status: 201, body: stored };
        } else if (err instanceof HttpError && err.statusCode === 409 && key) {
          // A key left pending by a failed bookkeeping step: the message itself tells the truth.
          const twin = await findByIdempotencyKey(app.db, key).catch(() => undefined);
          if (!twin) throw err;
          answer = { status: 201, body: { message: M.success, message_id: twin.message_id } };
        } else if (err instanceof HttpError) {
          throw err;
        } else {
          request.log.error({ err }, 'Contact message failed before it was stored');
          throw new HttpError(503, 'Your message could not be sent right now. Please try again in a moment.');
        }
      }
      return reply.code(answer.status).send(answer.body);
    },
  );
};

export default contact;
