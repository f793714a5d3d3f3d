import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ContactMessageAnswer } from '../../contract/contact';
import { HttpError } from '../http-error';
import { withIdempotency, type StoredAnswer } from '../lib/idempotency';
import { messageByKey, receiveMessage, UNAVAILABLE } from '../services/messages';

/**
 * POST /api/contact-messages: the contact form really sends.
 * Order of checks: rate limit (per client, RATE_LIMIT_PUBLIC_PER_MIN) -> body size (16 KB) and
 * JSON -> Idempotency-Key (a repeat within 24 h gets the first answer) -> honeypot (a filled
 * `website` gets the normal answer, nothing is stored) -> the request's shape (zod) and the
 * form's rules (`contactFormErrors`: 400 with each field's message and code) -> stored
 * (services/messages.ts receiveMessage). A database failure before the message is stored is a 503
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

      const ctx = app.services(request);
      let stored: ContactMessageAnswer | null = null;
      const run = async (): Promise<StoredAnswer> => {
        const receipt = await receiveMessage(ctx, body as Record<string, unknown>, key);
        if (receipt.status === 201 && 'message_id' in receipt.body && receipt.body.message_id > 0)
          stored = receipt.body;
        return receipt;
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
          const twin = await messageByKey(ctx, key);
          if (!twin) throw err;
          answer = { status: 201, body: twin };
        } else if (err instanceof HttpError) {
          throw err;
        } else {
          request.log.error({ err }, 'Contact message failed before it was stored');
          throw new HttpError(503, UNAVAILABLE);
        }
      }
      return reply.code(answer.status).send(answer.body);
    },
  );
};

export default contact;
