import ipaddr from 'ipaddr.js';

/**
 * The key that limits count a client under (docs/decisions/009-security-model.md, "Sign-in"): an
 * IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4), an IPv6 address by its /64, the
 * smallest block one subscriber is given, so that one household or server cannot walk through
 * 2^64 addresses to escape a limit. Anything unparsable is its own key.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip); // ::ffff:a.b.c.d becomes a.b.c.d
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
