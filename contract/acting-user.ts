/**
 * The header a back-office change kept offline carries when the send queue sends it later: its
 * author's user id. The server answers 409 (`NOT_THE_AUTHOR`) while someone else is signed in on
 * the device, and the queue keeps it for its author. A module of its own: the public forms'
 * send queue loads it without the rest of the auth contract.
 */
export const ACTING_USER_HEADER = 'x-manna-acting-user';
export const NOT_THE_AUTHOR = 'This change was made by someone else on this device; it waits until they sign in.';
