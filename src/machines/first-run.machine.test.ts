import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginAnswer, SessionUser } from '../../contract/auth';
import { authMachine } from './auth.machine';
import {
  SETUP_PASSWORD_MISMATCH,
  SETUP_UNREACHABLE,
  firstRunMachine,
  setupErrorsOf,
} from './first-run.machine';

const OWNER: SessionUser = {
  user_id: 1,
  email: 'founder@manna.example',
  role_id: 1,
  role: 'owner',
  permissions: ['users.manage'],
  must_change_password: false,
};
const SUBMIT = {
  type: 'form.submit' as const,
  token: 't0ken',
  email: 'founder@manna.example',
  password: 'Copper kettle on a winter morning',
  repeat: 'Copper kettle on a winter morning',
};

const start = (needed: boolean | Error, createOwner: () => Promise<SessionUser>, signedIn = vi.fn()) =>
  createActor(
    firstRunMachine.provide({
      actors: {
        fetchSetupStatus: fromPromise(async () => {
          if (needed instanceof Error) throw needed;
          return { needed };
        }),
        createOwner: fromPromise(createOwner),
      },
      actions: { notifySignedIn: (_, { user }) => signedIn(user) },
    }),
  ).start();

describe('first run', () => {
  it('asks the server, and offers nothing when the site has an account or cannot be asked', async () => {
    for (const answer of [false, new Error('offline')]) {
      const actor = start(answer, vi.fn());
      await waitFor(actor, (s) => !s.matches('asking'));
      expect(actor.getSnapshot().value).toBe('notNeeded');
      actor.send(SUBMIT);
      expect(actor.getSnapshot().value).toBe('notNeeded');
    }
  });

  it('refuses two different passwords without calling the server', async () => {
    const create = vi.fn();
    const actor = start(true, create);
    await waitFor(actor, (s) => s.matches('needed'));
    actor.send({ ...SUBMIT, repeat: 'Copper kettle' });
    expect(actor.getSnapshot().context.errors).toEqual({ repeat: SETUP_PASSWORD_MISMATCH });
    expect(create).not.toHaveBeenCalled();
  });

  it("shows the server's field message, then makes the owner and signs them in", async () => {
    const refused = Object.assign(new Error('Password must be at least 12 characters long.'), {
      status: 400,
      errors: { password: 'Password must be at least 12 characters long.' },
    });
    const create = vi.fn().mockRejectedValueOnce(refused).mockResolvedValueOnce(OWNER);
    const signedIn = vi.fn();
    const actor = start(true, create, signedIn);
    await waitFor(actor, (s) => s.matches('needed'));
    actor.send({ ...SUBMIT, password: 'short', repeat: 'short' });
    await waitFor(actor, (s) => s.matches('needed') && Object.keys(s.context.errors).length > 0);
    expect(actor.getSnapshot().context.errors).toEqual(refused.errors);
    actor.send(SUBMIT);
    await waitFor(actor, (s) => s.status === 'done');
    expect(create).toHaveBeenLastCalledWith(
      expect.objectContaining({ input: { token: 't0ken', email: SUBMIT.email, password: SUBMIT.password } }),
    );
    expect(signedIn).toHaveBeenCalledWith(OWNER);
  });

  it('says why when the address is used up or the server is away', () => {
    expect(setupErrorsOf({ status: 404, message: 'This setup address is not valid any more.' })).toEqual({
      form: 'This setup address is not valid any more.',
    });
    expect(setupErrorsOf({ status: 0, message: '' })).toEqual({ form: SETUP_UNREACHABLE });
    expect(setupErrorsOf(null)).toEqual({ form: SETUP_UNREACHABLE });
  });

  it('the back office takes the new owner as signed in (auth machine: session.started)', async () => {
    const actor = createActor(
      authMachine.provide({
        actors: {
          fetchMe: fromPromise<LoginAnswer>(async () => {
            throw Object.assign(new Error('Please sign in.'), { status: 401 });
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'session.started', user: OWNER });
    expect(actor.getSnapshot().value).toEqual({ signedIn: 'active' });
    expect(actor.getSnapshot().context.user).toEqual(OWNER);
  });
});
