import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { FORGOT_EMAIL_REQUIRED, forgotPasswordMachine } from './forgot-password.machine';
import { SETUP_UNREACHABLE } from './first-run.machine';

const start = (available: boolean | Error, requestLink: (input: { email: string }) => Promise<unknown>) =>
  createActor(
    forgotPasswordMachine.provide({
      actors: {
        fetchStatus: fromPromise(async () => {
          if (available instanceof Error) throw available;
          return { available };
        }),
        requestLink: fromPromise(({ input }) => requestLink(input)),
      },
    }),
  ).start();

describe('forgot password', () => {
  it('says to ask an administrator when the site cannot send mail', async () => {
    const request = vi.fn();
    const actor = start(false, request);
    await waitFor(actor, (s) => !s.matches('checking'));
    expect(actor.getSnapshot().value).toBe('unavailable');
    actor.send({ type: 'form.submit', email: 'me@manna.example' });
    expect(request).not.toHaveBeenCalled();
  });

  it('asks for an email before calling, then says the link is on its way', async () => {
    const request = vi.fn(async () => ({ message: 'sent' }));
    const actor = start(true, request);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'form.submit', email: '   ' });
    expect(actor.getSnapshot().context.errors).toEqual({ email: FORGOT_EMAIL_REQUIRED });
    expect(request).not.toHaveBeenCalled();

    actor.send({ type: 'form.submit', email: ' me@manna.example ' });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(request).toHaveBeenCalledWith({ email: 'me@manna.example' });
    expect(actor.getSnapshot().context.email).toBe('me@manna.example');
    actor.send({ type: 'form.again' });
    expect(actor.getSnapshot().value).toBe('editing');
  });

  it('keeps the form on a refusal or an unreachable server, and turns to the advice on a 409', async () => {
    const request = vi
      .fn()
      .mockRejectedValueOnce({ status: 429, message: 'Too many attempts.' })
      .mockRejectedValueOnce({ status: 0, message: '' })
      .mockRejectedValueOnce({ status: 409, message: 'No mail' });
    const actor = start(new Error('offline at first'), request);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'form.submit', email: 'me@manna.example' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.errors.form !== undefined);
    expect(actor.getSnapshot().context.errors).toEqual({ form: 'Too many attempts.' });
    actor.send({ type: 'form.submit', email: 'me@manna.example' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.errors.form === SETUP_UNREACHABLE);
    actor.send({ type: 'form.submit', email: 'me@manna.example' });
    await waitFor(actor, (s) => s.matches('unavailable'));
  });
});
