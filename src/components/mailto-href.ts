/**
 * A `mailto:` address for an email someone typed into a form. The address is encoded as one
 * component, so `?`, `&` or `%` in it cannot add headers (cc, bcc, subject, body) to the mail
 * that opens when staff click it.
 */
export const mailtoHref = (email: string) => `mailto:${encodeURIComponent(email)}`;
