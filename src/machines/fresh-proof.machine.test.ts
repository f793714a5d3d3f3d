import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { FactorsAnswer, ReauthBody } from '../../contract/auth';
import { freshProofMachine } from './fresh-proof.machine';

const FACTORS: FactorsAnswer = {
  factors: [
    { factor_id: 1, kind: 'totp', name: 'Phone', created_at: '2026-12-01T10:00:00Z', last_used_at: null },
  ],
  recovery_left: 10,
  required: true,
  proof_until: null,
};

const start = (reauth: (body: ReauthBody) => Promise<FactorsAnswer>) =>
  createActor(
    freshProofMachine.provide({
      actors: {
        loadFactors: fromPromise(async () => FACTORS),
        reauth: fromPromise(({ input }: { input: ReauthBody }) => reauth(input)),
        reauthPasskey: fromPromise(async () => FACTORS),
      },
    }),
  ).start();

describe('fresh proof', () => {
  it('asks once for every change waiting, proves, and tells them all to go on', async () => {
    const reauth = vi.fn(async () => ({ ...FACTORS, proof_until: '2026-12-07T10:05:00Z' }));
    const actor = start(reauth);
    const first = vi.fn();
    const second = vi.fn();
    actor.send({ type: 'proof.ask', settle: first });
    await waitFor(actor, (s) => s.matches('asking'));
    actor.send({ type: 'proof.ask', settle: second });
    expect(actor.getSnapshot().context.factors).toEqual(FACTORS);
    actor.send({ type: 'proof.submit', password: 'a long passphrase', code: ' 123456 ' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(reauth).toHaveBeenCalledTimes(1);
    expect(reauth).toHaveBeenCalledWith({ password: 'a long passphrase', code: '123456' });
    expect(first).toHaveBeenCalledWith(true);
    expect(second).toHaveBeenCalledWith(true);
    expect(actor.getSnapshot().context.waiting).toEqual([]);
  });

  it("keeps the dialog open with the server's words after a wrong proof; Cancel refuses the change", async () => {
    const wrong = Object.assign(new Error('Wrong password.'), {
      status: 400,
      errors: { password: 'That password is not right.' },
    });
    const actor = start(async () => {
      throw wrong;
    });
    const settle = vi.fn();
    actor.send({ type: 'proof.ask', settle });
    await waitFor(actor, (s) => s.matches('asking'));
    actor.send({ type: 'proof.submit', password: 'guess', code: '' });
    await waitFor(actor, (s) => s.matches('asking') && Object.keys(s.context.fieldErrors).length > 0);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'That password is not right.' });
    expect(settle).not.toHaveBeenCalled();
    actor.send({ type: 'proof.cancel' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(settle).toHaveBeenCalledWith(false);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
  });
});
