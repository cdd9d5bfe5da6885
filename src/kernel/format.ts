import type { IncomingMessage } from 'node:http';
import type { Format } from './context.ts';

const FORMAT = Symbol('fx.format');
const SUFFIX = Symbol('fx.json-suffix');
const TOKEN_QUERY = /([?&]auth_token=)[^&]*/g;

/**
 * The `.json` suffix picks the rendering (docs/reference.md#conventions item 1): it is removed from the path
 * before routing, so one route serves both the API and the HTML page. Under `jsonPrefixes` (the
 * API's routes outside the envelope whose failures are the envelope: a document's download, the
 * event stream) the path stays as it is and the failures are JSON too.
 */
export function rewriteUrl(raw: IncomingMessage, jsonPrefixes: readonly string[] = []): string {
  const url = raw.url ?? '/';
  const q = url.indexOf('?');
  const pathPart = q < 0 ? url : url.slice(0, q);
  const json = pathPart.endsWith('.json');
  const jsonFailures = json || jsonPrefixes.some((prefix) => underPrefix(pathPart, prefix));
  (raw as IncomingMessage & { [FORMAT]?: Format })[FORMAT] = jsonFailures ? 'json' : 'html';
  (raw as IncomingMessage & { [SUFFIX]?: boolean })[SUFFIX] = json;
  return json ? pathPart.slice(0, -5) + (q < 0 ? '' : url.slice(q)) : url;
}

/** Whether a path is `prefix` or below it (`/onerecord`, `/onerecord/…`; never `/onerecords`). */
export const underPrefix = (path: string, prefix: string) =>
  path.startsWith(prefix) && (path.length === prefix.length || '/?'.includes(path[prefix.length]!));

/** Whether the request asked for the API's JSON by the `.json` suffix (not a download under a JSON prefix). */
export function askedForJson(raw: IncomingMessage): boolean {
  return (raw as IncomingMessage & { [SUFFIX]?: boolean })[SUFFIX] === true;
}

export function formatOf(raw: IncomingMessage): Format {
  return (raw as IncomingMessage & { [FORMAT]?: Format })[FORMAT] ?? 'html';
}

/** Query strings appear in logs (docs/reference.md#authentication item 3): the token never does. */
export function redactUrl(url: string | undefined): string {
  return (url ?? '').replace(TOKEN_QUERY, '$1[redacted]');
}

const SITE = 'http://site.invalid';

/**
 * A path of this site to send a browser to (a post-login target), normalised the way a browser
 * would read it, or undefined. `/\t/evil.example`, `/\evil.example`, `//evil.example` and
 * anything with control characters would leave the site (or break the Location header).
 */
export function sitePath(value: string | undefined): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (!value || value.length > 2000 || !value.startsWith('/') || /[\u0000-\u001f\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, SITE);
  } catch {
    return undefined;
  }
  if (url.origin !== SITE || url.pathname.startsWith('//')) return undefined;
  return url.pathname + url.search + url.hash;
}
