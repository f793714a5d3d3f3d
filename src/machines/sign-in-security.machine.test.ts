import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { FactorsAnswer, SessionRow } from '../../contract/auth';
import { SECURITY_ERRORS, signInSecurityMachine } from './sign-in-security.machine';

const later = (ms: number) => new Date(Date.now() + ms).toISOString();
const NONE: FactorsAnswer = { factors: [], recovery_left: 0, required: true, proof_until: later(60_000) };
const APP = { factor_id: 7, kind: 'totp' as const, name: 'Phone', created_at: later(0), last_used_at: null };
const WITH_APP: FactorsAnswer = { factors: [APP], recovery_left: 10, required: true, proof_until: null };
const SESSIONS: SessionRow[] = [
  {
    id: 'aaaaaaaaaaaaaaaa',
    current: true,
    created_at: later(0),
    last_seen_at: later(0),
    browser: 'Chrome on Linux',
    ip: null,
  },
  {
    id: 'bbbbbbbbbbbbbbbb',
    current: false,
    created_at: later(0),
    last_seen_at: later(0),
    browser: null,
    ip: '10.0.0.2',
  },
];
const CODES = Array.from({ length: 10 }, (_, i) => `abcde-0000${i}`);
const REAUTH = Object.assign(new Error('Confirm it is you first'), {
  status: 403,
  codes: { form: 'reauth' },
});
const WRONG = Object.assign(new Error('That code is not right.'), {
  status: 400,
  errors: { code: 'That code is not right.' },
});

type Impl = Partial<Record<string, (input: never) => Promise<unknown>>>;

function start(factors: FactorsAnswer, impl: Impl = {}) {
  const calls: string[] = [];
  const changed: number[] = [];
  const actor = (name: string, fallback: (input: never) => Promise<unknown>) =>
    fromPromise(async ({ input }: { input: never }) => {
      calls.push(name);
      return (impl[name] ?? fallback)(input);
    }) as never;
  const a = createActor(
    signInSecurityMachine.provide({
      actors: {
        load: actor('load', async () => ({ factors, sessions: SESSIONS })),
        beginTotp: actor('beginTotp', async () => ({
          secret: 'JBSWY3DPEHPK3PXP',
          uri: 'otpauth://totp/x',
          qr_svg: '<svg/>',
        })),
        confirmTotp: actor('confirmTotp', async () => ({ factors: WITH_APP, recovery_codes: CODES })),
        addPasskey: actor('addPasskey', async () => ({ factors: WITH_APP })),
        removeFactor: actor('removeFactor', async () => ({ ...WITH_APP, factors: [] })),
        renewCodes: actor('renewCodes', async () => ({ factors: WITH_APP, recovery_codes: CODES })),
        reauth: actor('reauth', async () => ({ ...WITH_APP, proof_until: later(300_000) })),
        reauthPasskey: actor('reauthPasskey', async () => ({ ...WITH_APP, proof_until: later(300_000) })),
        endSessions: actor('endSessions', async () => SESSIONS.slice(0, 1)),
      },
      actions: { factorsChanged: () => changed.push(1) },
    }),
  ).start();
  return { actor: a, calls, changed };
}

describe('sign-in security', () => {
  it('adds an authenticator app: secret, first code, recovery codes shown once', async () => {
    const { actor, calls, changed } = start(NONE, {
      confirmTotp: async () => Promise.reject(WRONG),
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'totp.add' });
    await waitFor(actor, (s) => s.matches('totpShowing'));
    expect(actor.getSnapshot().context.totp?.secret).toBe('JBSWY3DPEHPK3PXP');
    actor.send({ type: 'totp.confirm', code: ' ', name: 'Phone' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'Enter the code' });
    actor.send({ type: 'totp.confirm', code: '000000', name: 'Phone' });
    await waitFor(actor, (s) => s.matches('totpShowing') && s.context.fieldErrors.code !== 'Enter the code');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'That code is not right.' });
    expect(changed).toEqual([]);
    expect(calls).toEqual(['load', 'beginTotp', 'confirmTotp']);
  });

  it('the right first code shows the recovery codes; "saved" puts them away', async () => {
    const { actor, changed } = start(NONE);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'totp.add' });
    await waitFor(actor, (s) => s.matches('totpShowing'));
    actor.send({ type: 'totp.confirm', code: '123456', name: 'Phone' });
    await waitFor(actor, (s) => s.matches('showingCodes'));
    expect(actor.getSnapshot().context).toMatchObject({ codes: CODES, totp: null, factors: WITH_APP });
    expect(changed).toEqual([1]);
    actor.send({ type: 'codes.done' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.codes).toBeNull();
  });

  it('without a fresh proof, a change asks for it first and goes on after it', async () => {
    const { actor, calls } = start(WITH_APP, {
      reauth: async (input: never) => {
        const body = input as { password: string; code?: string };
        if (body.code !== '123456') throw WRONG;
        return { ...WITH_APP, proof_until: later(300_000) };
      },
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'codes.renew' });
    expect(actor.getSnapshot().matches('proving')).toBe(true);
    actor.send({ type: 'proof.submit', password: 'my passphrase', code: '999999' });
    await waitFor(actor, (s) => s.matches('proving') && Object.keys(s.context.fieldErrors).length > 0);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'That code is not right.' });
    actor.send({ type: 'proof.submit', password: 'my passphrase', code: ' 123456 ' });
    await waitFor(actor, (s) => s.matches('showingCodes'));
    expect(calls).toEqual(['load', 'reauth', 'reauth', 'renewCodes']);
  });

  it('when the server says the proof ran out, asks for it and then starts again', async () => {
    let first = true;
    const { actor, calls } = start(NONE, {
      beginTotp: async () => {
        if (first) {
          first = false;
          throw REAUTH;
        }
        return { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x', qr_svg: '<svg/>' };
      },
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'totp.add' });
    await waitFor(actor, (s) => s.matches('proving'));
    actor.send({ type: 'proof.submit', password: 'my passphrase', code: '' });
    await waitFor(actor, (s) => s.matches('totpShowing'));
    expect(calls).toEqual(['load', 'beginTotp', 'reauth', 'beginTotp']);
  });

  it('removing asks first; cancel keeps it', async () => {
    const { actor, calls, changed } = start({ ...WITH_APP, proof_until: later(60_000) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'factor.remove', id: 7 });
    expect(actor.getSnapshot().matches('confirmingRemove')).toBe(true);
    actor.send({ type: 'remove.cancel' });
    expect(actor.getSnapshot().context.pending).toBeNull();
    actor.send({ type: 'factor.remove', id: 7 });
    actor.send({ type: 'remove.confirm' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.factors?.factors.length === 0);
    expect(calls).toEqual(['load', 'removeFactor']);
    expect(changed).toEqual([1]);
  });

  it('a passkey the browser refused says so and changes nothing', async () => {
    const { actor } = start(
      { ...WITH_APP, proof_until: later(60_000) },
      {
        addPasskey: async () =>
          Promise.reject(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' })),
      },
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'passkey.add', name: 'Laptop' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(SECURITY_ERRORS.passkey);
    expect(actor.getSnapshot().context.factors).toMatchObject({ factors: [APP] });
  });

  it('ends another session and shows the list as the server now has it', async () => {
    const { actor } = start(WITH_APP);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.sessions).toHaveLength(2);
    actor.send({ type: 'session.end', id: 'bbbbbbbbbbbbbbbb' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.sessions.length === 1);
  });
});
