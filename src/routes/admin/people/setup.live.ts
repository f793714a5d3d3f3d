import { fromPromise } from 'xstate';
import { createOwnerWithToken, fetchSetupStatus } from '../../../api/auth';
import type { SessionUser } from '../../../../contract/auth';
import { firstRunMachine } from '../../../machines/first-run.machine';

/** The first-run machine with the real API: the sign-in page's hint and the setup page use it. */
export const firstRunLive = (onSignedIn: (user: SessionUser) => void = () => {}) =>
  firstRunMachine.provide({
    actors: {
      fetchSetupStatus: fromPromise(() => fetchSetupStatus()),
      createOwner: fromPromise(({ input }) => createOwnerWithToken(input)),
    },
    actions: { notifySignedIn: (_, { user }) => onSignedIn(user) },
  });
