import { fromPromise } from 'xstate';
import {
  addPasskey,
  beginTotp,
  confirmTotp,
  endSessions,
  fetchFactors,
  fetchMe,
  listSessions,
  newRecoveryCodes,
  reauthenticate,
  reauthenticateWithPasskey,
  removeFactor,
} from '../../../api/auth';
import type { SessionUser } from '../../../../contract/auth';
import { signInSecurityMachine } from '../../../machines/sign-in-security.machine';

/**
 * "Sign-in security" with its live effects: the account's factors and sessions from the server,
 * the browser's passkey dialog, and the session told of the user as the server now sees them once
 * a factor came or went (a person who had to set one up may go on to the back office).
 */
export const signInSecurityLive = (userUpdated: (user: SessionUser) => void) =>
  signInSecurityMachine.provide({
    actors: {
      load: fromPromise(async () => {
        const [factors, sessions] = await Promise.all([fetchFactors(), listSessions()]);
        return { factors, sessions };
      }),
      beginTotp: fromPromise(() => beginTotp()),
      confirmTotp: fromPromise(({ input }) => confirmTotp(input.code, input.name || undefined)),
      addPasskey: fromPromise(({ input }) => addPasskey(input.name || undefined)),
      removeFactor: fromPromise(({ input }) => removeFactor(input.id)),
      renewCodes: fromPromise(() => newRecoveryCodes()),
      reauth: fromPromise(({ input }) => reauthenticate(input)),
      reauthPasskey: fromPromise(() => reauthenticateWithPasskey()),
      endSessions: fromPromise(({ input }) => endSessions(input.id)),
    },
    actions: {
      factorsChanged: () => {
        fetchMe().then(
          (answer) => {
            if ('user_id' in answer) userUpdated(answer);
          },
          () => undefined, // the next call says whether the session still holds
        );
      },
    },
  });
