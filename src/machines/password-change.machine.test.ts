import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SessionUser } from '../../contract/auth';
import { PASSWORD_MISMATCH, passwordChangeMachine } from './password-change.machine';

const USER: SessionUser = {
  user_id: 1,
  email: 'a@example.com',
  role_id: 1,
  role: 'owner',
  permissions: [],
  must_change_password: false,
};

describe('own password change', () => {
  it('refuses two different new passwords without calling the server', () => {
    const call = vi.fn();
    const actor = createActor(
      passwordChangeMachine.provide({ actors: { changePassword: fromPromise(call) } }),
    ).start();
    actor.send({
      type: 'form.submit',
      current: 'old one here',
      next: 'maple orbit lantern',
      repeat: 'maple orbit lanterns',
    });
    expect(actor.getSnapshot().context.errors).toEqual({ repeat: PASSWORD_MISMATCH });
    expect(call).not.toHaveBeenCalled();
  });

  it("shows the server's field message, and reports success", async () => {
    let answer: Promise<SessionUser> = Promise.reject(
      Object.assign(new Error('Password must be at least 12 characters long.'), {
        status: 400,
        errors: { new_password: 'Password must be at least 12 characters long.' },
      }),
    );
    answer.catch(() => {});
    const changed = vi.fn();
    const actor = createActor(
      passwordChangeMachine.provide({
        actors: { changePassword: fromPromise(() => answer) },
        actions: { notifyChanged: (_, p) => changed(p.user) },
      }),
    ).start();
    actor.send({ type: 'form.submit', current: 'old one here', next: 'short', repeat: 'short' });
    await waitFor(actor, (s) => s.matches('editing') && Object.keys(s.context.errors).length > 0);
    expect(actor.getSnapshot().context.errors.new_password).toBe(
      'Password must be at least 12 characters long.',
    );
    answer = Promise.resolve(USER);
    actor.send({
      type: 'form.submit',
      current: 'old one here',
      next: 'maple orbit lantern',
      repeat: 'maple orbit lantern',
    });
    await waitFor(actor, (s) => s.context.done);
    expect(changed).toHaveBeenCalledWith(USER);
    expect(actor.getSnapshot().context.errors).toEqual({});
  });
});
