import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { webhookUrlError, type WebhookUrlCode } from '../../contract/webhooks';

/**
 * Where a webhook may be sent (docs/decisions/037-webhooks.md): a public address only, unless
 * WEBHOOKS_ALLOW_PRIVATE says otherwise (a receiver on the same machine or network, the tests).
 * The address's name is resolved when the endpoint is saved, and again at each delivery by the
 * connection's own lookup (`guardedLookup`), so a name that later points inside (DNS rebinding)
 * is refused where the connection is made, not only where the form was checked.
 */
export interface AddressRules {
  /** Only https:// (NODE_ENV=production). */
  httpsOnly: boolean;
  /** Private, loopback and link-local addresses are allowed (WEBHOOKS_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

/** A public unicast address: not loopback, private, link-local, shared, multicast or reserved. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  return ipaddr.process(ip).range() === 'unicast';
}

/** The hostname of a URL as a resolver takes it (an IPv6 literal without its brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why an endpoint's address is refused, or null: its form, then where its name points. A public
 * address must be https:// when `httpsOnly`; a private one (allowed by `allowPrivate` only) may be
 * plain http, as receivers inside a network often are.
 */
export async function checkEndpointUrl(raw: string, rules: AddressRules): Promise<WebhookUrlCode | null> {
  const code = webhookUrlError(raw);
  if (code) return code;
  const url = new URL(raw.trim());
  const host = hostOf(url);
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return 'urlInvalid';
    }
  }
  if (addresses.length === 0) return 'urlInvalid';
  if (!addresses.every(isPublicAddress)) return rules.allowPrivate ? null : 'urlPrivate';
  return rules.httpsOnly && url.protocol !== 'https:' ? 'urlHttps' : null;
}

/** A connection's lookup that refuses a name pointing at an address the rules do not allow. */
export const guardedLookup =
  (rules: AddressRules): LookupFunction =>
  (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const refused = !rules.allowPrivate && list.some((a) => !isPublicAddress(a.address));
      if (refused || list.length === 0)
        return callback(
          Object.assign(new Error(`${hostname} points at a private or local address`), { code: 'EPRIVATE' }),
          '',
          0,
        );
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
