import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { AddressRule } from '../config/webhooks.ts';

/**
 * Where a webhook may point (docs/reference.md#events): only http/https, and under the address rule of
 * WEBHOOK_ALLOW_PRIVATE (config/webhooks.ts):
 * - `public` (production; `false`): only public unicast addresses, so a webhook cannot reach
 *   the server's own network (loopback, private, link-local, and every other special range
 *   ipaddr.js knows: unspecified, carrier-grade NAT, unique-local, …), nor an IPv4 host of such
 *   a range through an IPv6 form that carries its address;
 * - `loopback` (the demo's default): those, and the server's own loopback (127.0.0.0/8, ::1 as
 *   written: a receiver on the integrator's machine against a local demo server);
 * - `any` (`true`, never in production): every address.
 * Checked at registration and again at delivery, where the connection goes to the address that
 * passed the check.
 */

export const MAX_URL_LENGTH = 2000;
const DNS_TIMEOUT_MS = 5000;

/** An IPv4 address from two 16-bit groups of an IPv6 address. */
const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * IPv6 forms that reach an IPv4 host, and the IPv4 addresses each carries: the address is as
 * public as they are (a prefix alone says nothing about where the packet ends up).
 * Local-use NAT64 (64:ff9b:1::/48, RFC 8215) is not listed: where its IPv4 sits depends on the
 * operator's prefix length, and ipaddr.js counts the whole prefix as special (refused).
 */
const CARRIERS: Array<{ prefix: [ipaddr.IPv6, number]; carried: (g: number[]) => ipaddr.IPv4[] }> = [
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d (RFC 4291; `::` and `::1` are 0.0.0.0 and 0.0.0.1)
  { prefix: ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), carried: (g) => [ipv4Of(g[6]!, g[7]!)] },
  { prefix: ipaddr.IPv6.parseCIDR('::/96'), carried: (g) => [ipv4Of(g[6]!, g[7]!)] },
  // NAT64, well-known prefix (RFC 6052)
  { prefix: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), carried: (g) => [ipv4Of(g[6]!, g[7]!)] },
  // 6to4 (RFC 3056): the site's IPv4 in bits 16-48
  { prefix: ipaddr.IPv6.parseCIDR('2002::/16'), carried: (g) => [ipv4Of(g[1]!, g[2]!)] },
  // Teredo (RFC 4380): the server's IPv4 in bits 32-64, the client's (inverted) in the last 32
  { prefix: ipaddr.IPv6.parseCIDR('2001::/32'), carried: (g) => [ipv4Of(g[2]!, g[3]!), ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)] },
];

/** A public unicast address; an IPv6 form that carries IPv4 addresses is judged by them. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const carrier = CARRIERS.find((c) => v6.match(c.prefix));
    if (carrier) return carrier.carried(v6.parts).every((v4) => v4.range() === 'unicast');
  }
  return ip.range() === 'unicast';
}

/**
 * An address the rule allows. Loopback is the address as written (127.0.0.0/8 or ::1): an IPv6
 * form that carries 127.0.0.1 (`::ffff:127.0.0.1`, `::127.0.0.1`, NAT64, …) stays refused.
 */
export function isAllowedAddress(address: string, rule: AddressRule): boolean {
  if (rule === 'any' || isPublicAddress(address)) return true;
  return rule === 'loopback' && ipaddr.isValid(address) && ipaddr.parse(address).range() === 'loopback';
}

/** The host of a URL as an IP literal, without IPv6 brackets; null for a name. */
function literal(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : null;
}

export type UrlCheck =
  | { ok: true; url: URL }
  | { ok: false; reason: 'url_invalid' | 'url_scheme' | 'url_credentials' | 'url_private' | 'url_unresolvable' };

/** The shape of a webhook URL: absolute http/https, no user:password, bounded length. */
export function parseWebhookUrl(text: string): UrlCheck {
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: 'url_invalid' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'url_invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'url_scheme' };
  if (!url.hostname) return { ok: false, reason: 'url_invalid' };
  if (url.username || url.password) return { ok: false, reason: 'url_credentials' };
  return { ok: true, url };
}

function lookupAll(hostname: string): Promise<dns.LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('DNS lookup timed out')), DNS_TIMEOUT_MS);
    dns.lookup(hostname, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses);
    });
  });
}

/** Registration: the shape, and every address the name resolves to is one the rule allows. */
export async function checkWebhookUrl(text: string, rule: AddressRule): Promise<UrlCheck> {
  const parsed = parseWebhookUrl(text);
  if (!parsed.ok || rule === 'any') return parsed;
  const ip = literal(parsed.url.hostname);
  if (ip) return isAllowedAddress(ip, rule) ? parsed : { ok: false, reason: 'url_private' };
  let addresses: dns.LookupAddress[];
  try {
    addresses = await lookupAll(parsed.url.hostname);
  } catch {
    // On a demo server a name it cannot resolve yet is judged at delivery, as every name is
    // (integrators register hosts of their own test setups); production refuses it at once.
    return rule === 'loopback' ? parsed : { ok: false, reason: 'url_unresolvable' };
  }
  return addresses.length && addresses.every((a) => isAllowedAddress(a.address, rule)) ? parsed : { ok: false, reason: 'url_private' };
}

export class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
}

/** Refuses an IP-literal host at delivery (no DNS lookup happens for literals). */
export function refuseLiteral(hostname: string, rule: AddressRule = 'public'): AddressRefused | null {
  const ip = literal(hostname);
  return ip && !isAllowedAddress(ip, rule) ? new AddressRefused(`address ${ip} is not public`) : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves, refuses the connection when any address is not one
 * the rule allows, and hands the socket exactly the checked addresses (no second resolution
 * between check and connect).
 */
export const guardedLookup =
  (rule: AddressRule) =>
  (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !isAllowedAddress(a.address, rule));
      if (bad || !list.length)
        return callback(new AddressRefused(`${hostname} resolves to ${bad?.address ?? 'nothing'}, not a public address`), '');
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
