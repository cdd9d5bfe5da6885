import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may point (decisions.md §8): only http/https; with APP_ENV=production only
 * public unicast addresses, so a webhook cannot reach the server's own network (loopback,
 * private, link-local, and every other special range ipaddr.js knows: unspecified, carrier-grade
 * NAT, unique-local, IPv4-mapped and NAT64 forms of those, …). Checked at registration and again
 * at delivery, where the connection goes to the address that passed the check.
 */

export const MAX_URL_LENGTH = 2000;
const DNS_TIMEOUT_MS = 5000;

/** A public unicast address (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
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

/** Registration: the shape, and in production every address the name resolves to is public. */
export async function checkWebhookUrl(text: string, production: boolean): Promise<UrlCheck> {
  const parsed = parseWebhookUrl(text);
  if (!parsed.ok || !production) return parsed;
  const ip = literal(parsed.url.hostname);
  if (ip) return isPublicAddress(ip) ? parsed : { ok: false, reason: 'url_private' };
  let addresses: dns.LookupAddress[];
  try {
    addresses = await lookupAll(parsed.url.hostname);
  } catch {
    return { ok: false, reason: 'url_unresolvable' };
  }
  return addresses.length && addresses.every((a) => isPublicAddress(a.address)) ? parsed : { ok: false, reason: 'url_private' };
}

export class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
}

/** Refuses an IP-literal host at delivery (no DNS lookup happens for literals). */
export function refuseLiteral(hostname: string): AddressRefused | null {
  const ip = literal(hostname);
  return ip && !isPublicAddress(ip) ? new AddressRefused(`address ${ip} is not public`) : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves, refuses the connection when any address is not
 * public, and hands the socket exactly the checked addresses (no second resolution between
 * check and connect).
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || !list.length)
      return callback(new AddressRefused(`${hostname} resolves to ${bad?.address ?? 'nothing'}, not a public address`), '');
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}
