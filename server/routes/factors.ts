import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FactorAddedAnswer,
  FactorsAnswer,
  IdParams,
  PasskeyBody,
  PasskeyOptions,
  ReauthBody,
  SessionIdParams,
  SessionRows,
  TotpConfirmBody,
  TotpSetupAnswer,
} from '../../contract/auth';
import { z } from 'zod/mini';
import * as factors from '../services/factors';

/**
 * A signed-in person's own second factors and sessions (services/factors.ts; the account screen's
 * "Sign-in security"): GET /api/auth/factors; POST /api/auth/factors/totp (a new secret) and
 * .../totp/confirm (its first code); POST /api/auth/factors/passkey/options and .../passkey;
 * DELETE /api/auth/factors/:id; POST /api/auth/factors/recovery-codes (a new set); POST
 * /api/auth/reauth (password + code) and /api/auth/reauth/passkey(/options): the fresh proof that
 * changing factors needs; GET /api/auth/sessions and DELETE /api/auth/sessions/:id ('others': all
 * but this one). Each needs a signed-in session (plugins/auth.ts); changes need a fresh proof.
 */
const me = { config: { permission: 'signed-in' as const } };
const noStore = (reply: { header(name: string, value: string): unknown }) =>
  reply.header('cache-control', 'no-store');

const factorRoutes: FastifyPluginAsyncZod = async (app) => {
  const session = (request: { adminSession: { hash: string; provedAt: string | null } | null }) =>
    request.adminSession!;

  app.get('/auth/factors', { ...me, schema: { response: { 200: FactorsAnswer } } }, (request, reply) => {
    noStore(reply);
    return factors.factorsAnswer(app.services(request), request.user!, session(request));
  });

  app.post(
    '/auth/factors/totp',
    { ...me, schema: { response: { 200: TotpSetupAnswer } } },
    (request, reply) => {
      noStore(reply);
      return factors.beginTotp(app.services(request), request.user!, session(request));
    },
  );

  app.post(
    '/auth/factors/totp/confirm',
    { ...me, schema: { body: TotpConfirmBody, response: { 200: FactorAddedAnswer } } },
    (request, reply) => {
      noStore(reply);
      return factors.confirmTotp(app.services(request), request.user!, session(request), request.body);
    },
  );

  app.post(
    '/auth/factors/passkey/options',
    { ...me, schema: { response: { 200: PasskeyOptions } } },
    (request, reply) => {
      noStore(reply);
      return factors.beginPasskey(app.services(request), request.user!, session(request));
    },
  );

  app.post(
    '/auth/factors/passkey',
    { ...me, schema: { body: PasskeyBody, response: { 200: FactorAddedAnswer } } },
    (request, reply) => {
      noStore(reply);
      return factors.finishPasskey(app.services(request), request.user!, session(request), request.body);
    },
  );

  app.delete(
    '/auth/factors/:id',
    { ...me, schema: { params: IdParams, response: { 200: FactorsAnswer } } },
    (request) =>
      factors.removeFactor(app.services(request), request.user!, session(request), request.params.id),
  );

  app.post(
    '/auth/factors/recovery-codes',
    { ...me, schema: { response: { 200: FactorAddedAnswer } } },
    (request, reply) => {
      noStore(reply);
      return factors.regenerateRecoveryCodes(app.services(request), request.user!, session(request));
    },
  );

  // the fresh proof is a sign-in again: under the sign-in limits, a 429 says when to come back
  app.post(
    '/auth/reauth',
    { ...me, schema: { body: ReauthBody, response: { 200: FactorsAnswer } } },
    (request) =>
      factors.reauth(
        app.services(request),
        request.user!,
        { ...session(request), ip: request.ip },
        request.body,
      ),
  );

  app.post(
    '/auth/reauth/passkey/options',
    { ...me, schema: { response: { 200: PasskeyOptions } } },
    (request, reply) => {
      noStore(reply);
      return factors.passkeyOptions(app.services(request), request.user!.user_id);
    },
  );

  app.post(
    '/auth/reauth/passkey',
    { ...me, schema: { body: PasskeyBody, response: { 200: FactorsAnswer } } },
    (request) =>
      factors.reauthWithPasskey(
        app.services(request),
        request.user!,
        { ...session(request), ip: request.ip },
        request.body.response,
      ),
  );

  app.get('/auth/sessions', { ...me, schema: { response: { 200: SessionRows } } }, (request, reply) => {
    noStore(reply);
    return factors.listSessions(app.services(request), request.user!, session(request));
  });

  // ending sessions can end the owner's own: a stale (perhaps stolen) session proves itself first
  app.delete(
    '/auth/sessions/:id',
    {
      config: { permission: 'signed-in', freshProof: true },
      schema: {
        params: z.union([SessionIdParams, z.object({ id: z.literal('others') })]),
        response: { 200: SessionRows },
      },
    },
    (request) =>
      factors.endSessions(app.services(request), request.user!, session(request), request.params.id),
  );
};

export default factorRoutes;
