import type { i18n as I18n } from 'i18next';
import { fromPromise } from 'xstate';
import { fetchForgotPasswordStatus, requestPasswordLink, resetPasswordWithLink } from '../../../api/auth';
import { forgotPasswordMachine } from '../../../machines/forgot-password.machine';
import { resetPasswordMachine } from '../../../machines/reset-password.machine';

/** "Forgot password?" with its live effects: whether mail is set up, and the request of a link, written in the page's language. */
export const forgotPasswordLive = (i18n: I18n) =>
  forgotPasswordMachine.provide({
    actors: {
      fetchStatus: fromPromise(() => fetchForgotPasswordStatus()),
      requestLink: fromPromise(({ input }) => requestPasswordLink({ ...input, lang: i18n.language })),
    },
  });

/** The page of a reset or invitation link with its live effect: the new password, with the link's token. */
export const resetPasswordLive = resetPasswordMachine.provide({
  actors: { resetPassword: fromPromise(({ input }) => resetPasswordWithLink(input)) },
});
