import path from 'node:path';
import { IANAZone } from 'luxon';
import { readMailSettings, type MailSettings } from './mail.ts';
import { readWebhookSettings, type WebhookSettings } from './webhooks.ts';

/** Settings read once from the environment at start (docs/reference.md#running). */
export interface Config {
  port: number;
  host: string;
  /** Directory of the embedded database; used only when databaseUrl is unset. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_READ_URL: PostgreSQL streaming replicas for reads (comma-separated; db/replicas.ts). */
  databaseReadUrls: string[];
  /** DATABASE_READ_MAX_LAG_MS: a replica that has not replayed what the primary wrote this long ago is skipped. */
  databaseReadMaxLagMs: number;
  appEnv: 'demo' | 'production';
  /** Explicit secret; when unset (demo only) one is generated and kept (see accounts/secret.ts). */
  tokenSecret: string | undefined;
  timezone: string;
  logLevel: string;
  /** WEBHOOK_RETRY_DELAYS, WEBHOOK_POLL_MS, WEBHOOK_TIMEOUT_MS, WEBHOOK_ALLOW_PRIVATE (webhooks.ts). */
  webhooks: WebhookSettings;
  /**
   * Whom to believe about the original request (X-Forwarded-Proto/-For): false (nobody, the
   * default), true (any proxy), a hop count, or proxy addresses/CIDRs. Only then does a request
   * that reached a TLS proxy count as https (Secure cookies) and carry the client's address
   * (login throttling).
   */
  trustProxy: boolean | number | string;
  /** LANE_PRICES_RELEASE: `threshold` (default, the contract's) or `strict` (above). */
  lanePricesRelease: LanePricesRelease;
  /** METRICS_TOKEN: GET /metrics answers only with this bearer token; unset, there is no /metrics (ops/metrics.ts). */
  metricsToken: string | undefined;
  /** SMTP_URL, MAIL_FROM, PUBLIC_URL (mail.ts; docs/reference.md#mail). */
  mail: MailSettings;
  /**
   * ROUTING_URL (an OSRM server's base URL), ROUTING_TIMEOUT_MS, ROUTING_CONCURRENCY: road
   * distances from it (market/roads.ts; docs/choices.md, "Road distances"); unset, the estimate.
   */
  routing: { url: string; timeoutMs: number; concurrency: number } | undefined;
}

/**
 * How lane prices release awards into their figures (LANE_PRICES_RELEASE; lanes/cells.ts,
 * docs/choices.md "Lane prices"): `threshold`, the contract's (docs/reference.md#lane-prices: batches of at
 * least 5 awards by 3 owner companies), or `strict`, an operator's opt-in against insiders that
 * also asks every coalition of up to four companies of a batch, owners or winners, to have taken
 * no part in four of it (lanes/lane.ts resistsCoalitions).
 */
export type LanePricesRelease = 'threshold' | 'strict';

export class ConfigError extends Error {}

/** Reads and validates the configuration; every problem is named with its variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];

  const portText = env.PORT ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535) problems.push(`PORT must be a port number (0-65535), got "${portText}"`);

  const appEnv = env.APP_ENV ?? 'demo';
  if (appEnv !== 'demo' && appEnv !== 'production') problems.push(`APP_ENV must be "demo" or "production", got "${appEnv}"`);

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must start with postgres:// or postgresql://');

  const databaseReadUrls = (env.DATABASE_READ_URL ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (databaseReadUrls.some((u) => !/^postgres(ql)?:\/\//.test(u)))
    problems.push('DATABASE_READ_URL must be postgres:// URLs, comma-separated');
  if (databaseReadUrls.length && !databaseUrl) problems.push('DATABASE_READ_URL needs DATABASE_URL (the primary)');
  const lagText = env.DATABASE_READ_MAX_LAG_MS ?? '5000';
  const databaseReadMaxLagMs = Number(lagText);
  if (!/^\d+$/.test(lagText) || databaseReadMaxLagMs < 100 || databaseReadMaxLagMs > 600_000)
    problems.push(`DATABASE_READ_MAX_LAG_MS must be milliseconds from 100 to 600000, got "${lagText}"`);

  const tokenSecret = env.TOKEN_SECRET || undefined;
  if (appEnv === 'production' && !tokenSecret) problems.push('TOKEN_SECRET is required when APP_ENV=production');
  if (tokenSecret && tokenSecret.length < 16) problems.push('TOKEN_SECRET must be at least 16 characters');

  const timezone = env.APP_TIMEZONE || 'UTC';
  if (!IANAZone.isValidZone(timezone)) problems.push(`APP_TIMEZONE must be an IANA time zone such as Europe/Berlin, got "${timezone}"`);

  const trustProxy = readTrustProxy(env.TRUST_PROXY ?? '');
  if (trustProxy === undefined)
    problems.push(`TRUST_PROXY must be true, false, a hop count or proxy addresses (e.g. 127.0.0.1,10.0.0.0/8), got "${env.TRUST_PROXY}"`);

  const webhooks = readWebhookSettings(env, appEnv, problems);

  const lanePricesRelease = (env.LANE_PRICES_RELEASE || 'threshold').trim().toLowerCase();
  if (lanePricesRelease !== 'threshold' && lanePricesRelease !== 'strict')
    problems.push(`LANE_PRICES_RELEASE must be "threshold" or "strict", got "${env.LANE_PRICES_RELEASE}"`);

  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,200}$/.test(metricsToken))
    problems.push('METRICS_TOKEN must be 16 to 200 printable characters without spaces');
  const host = env.HOST || '127.0.0.1';
  const mail = readMailSettings(env, host, port, problems);

  const routing = readRouting(env, problems);

  if (problems.length) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);

  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    databaseReadUrls,
    databaseReadMaxLagMs,
    appEnv: appEnv as Config['appEnv'],
    tokenSecret,
    timezone,
    logLevel: env.LOG_LEVEL || 'info',
    webhooks,
    trustProxy: trustProxy ?? false,
    lanePricesRelease: lanePricesRelease as LanePricesRelease,
    metricsToken,
    mail,
    routing,
  };
}

function readRouting(env: NodeJS.ProcessEnv, problems: string[]): Config['routing'] {
  const url = (env.ROUTING_URL ?? '').trim();
  const number = (name: string, fallback: string, min: number, max: number) => {
    const text = (env[name] ?? '').trim() || fallback;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max)
      problems.push(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
    return value;
  };
  const timeoutMs = number('ROUTING_TIMEOUT_MS', '5000', 100, 60_000);
  const concurrency = number('ROUTING_CONCURRENCY', '2', 1, 32);
  if (!url) return undefined;
  if (!/^https?:\/\/[^\s/?#]+/.test(url) || /[?#]/.test(url))
    problems.push(`ROUTING_URL must be an http(s) base URL without query (an OSRM server), got "${url}"`);
  return { url, timeoutMs, concurrency };
}

function readTrustProxy(text: string): boolean | number | string | undefined {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const parts = value.split(',').map((p) => p.trim());
  // IPv4/IPv6 addresses with an optional prefix length, or proxy-addr's names (loopback, linklocal, uniquelocal).
  const ok = parts.every((p) => /^(loopback|linklocal|uniquelocal|[0-9a-f:.]+(\/\d{1,3})?)$/.test(p) && /[.:]|^[a-z]+$/.test(p));
  return ok ? parts.join(',') : undefined;
}
