import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { RESET_PASSWORD_MISMATCH, resetPasswordMachine } from './reset-password.machine';

const start = (reset: (input: { token: string; password: string }) => Promise<unknown>) =>
  createActor(
    resetPasswordMachine.provide({ actors: { resetPassword: fromPromise(({ input }) => reset(input)) } }),
    { input: { token: 'link-token' } },
  ).start();

describe('reset password', () => {
  it('refuses two different passwords without calling the server', () => {
    const reset = vi.fn();
    const actor = start(reset);
    actor.send({ type: 'form.submit', password: 'one long passphrase', repeat: 'another one' });
    expect(actor.getSnapshot().context.errors).toEqual({ repeat: RESET_PASSWORD_MISMATCH });
    expect(reset).not.toHaveBeenCalled();
  });

  it("shows the server's field message, then the form message of a used link, then is done", async () => {
    const reset = vi
      .fn()
      .mockRejectedValueOnce({
        status: 400,
        message: 'Too short',
        errors: { password: 'Use at least 12 characters.' },
      })
      .mockRejectedValueOnce({
        status: 400,
        message: 'This link has expired or has already been used.',
        errors: { form: 'This link has expired or has already been used.' },
      })
      .mockResolvedValueOnce({ message: 'done' });
    const actor = start(reset);
    actor.send({ type: 'form.submit', password: 'short', repeat: 'short' });
    await waitFor(actor, (s) => s.matches('editing') && Object.keys(s.context.errors).length > 0);
    expect(actor.getSnapshot().context.errors).toEqual({ password: 'Use at least 12 characters.' });
    actor.send({
      type: 'form.submit',
      password: 'a long enough passphrase',
      repeat: 'a long enough passphrase',
    });
    await waitFor(actor, (s) => s.matches('editing') && s.context.errors.form !== undefined);
    actor.send({
      type: 'form.submit',
      password: 'a long enough passphrase',
      repeat: 'a long enough passphrase',
    });
    await waitFor(actor, (s) => s.status === 'done');
    expect(reset).toHaveBeenLastCalledWith({ token: 'link-token', password: 'a long enough passphrase' });
  });
});
