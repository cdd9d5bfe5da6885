import type { IncomingMessage } from 'node:http';
import type { Format } from './context.ts';

const FORMAT = Symbol('fx.format');
const TOKEN_QUERY = /([?&]auth_token=)[^&]*/g;

/**
 * The `.json` suffix picks the rendering (api.md, Endpoints 1): it is removed from the path
 * before routing, so one route serves both the API and the HTML page.
 */
export function rewriteUrl(raw: IncomingMessage): string {
  const url = raw.url ?? '/';
  const q = url.indexOf('?');
  const pathPart = q < 0 ? url : url.slice(0, q);
  const json = pathPart.endsWith('.json');
  (raw as IncomingMessage & { [FORMAT]?: Format })[FORMAT] = json ? 'json' : 'html';
  return json ? pathPart.slice(0, -5) + (q < 0 ? '' : url.slice(q)) : url;
}

export function formatOf(raw: IncomingMessage): Format {
  return (raw as IncomingMessage & { [FORMAT]?: Format })[FORMAT] ?? 'html';
}

/** Query strings appear in logs (api.md, Authentication 3): the token never does. */
export function redactUrl(url: string | undefined): string {
  return (url ?? '').replace(TOKEN_QUERY, '$1[redacted]');
}
