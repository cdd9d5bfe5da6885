import path from 'node:path';
import { IANAZone } from 'luxon';
import { readWebhookSettings, type WebhookSettings } from './webhooks/settings.ts';

/** Settings read once from the environment at start (decisions.md §1). */
export interface Config {
  port: number;
  host: string;
  /** Directory of the embedded database; used only when databaseUrl is unset. */
  dataDir: string;
  databaseUrl: string | undefined;
  appEnv: 'demo' | 'production';
  /** Explicit secret; when unset (demo only) one is generated and kept (see accounts/secret.ts). */
  tokenSecret: string | undefined;
  timezone: string;
  logLevel: string;
  /** WEBHOOK_RETRY_DELAYS, WEBHOOK_POLL_MS, WEBHOOK_TIMEOUT_MS (src/webhooks/settings.ts). */
  webhooks: WebhookSettings;
}

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

  const tokenSecret = env.TOKEN_SECRET || undefined;
  if (appEnv === 'production' && !tokenSecret) problems.push('TOKEN_SECRET is required when APP_ENV=production');
  if (tokenSecret && tokenSecret.length < 16) problems.push('TOKEN_SECRET must be at least 16 characters');

  const timezone = env.APP_TIMEZONE || 'UTC';
  if (!IANAZone.isValidZone(timezone)) problems.push(`APP_TIMEZONE must be an IANA time zone such as Europe/Berlin, got "${timezone}"`);

  const webhooks = readWebhookSettings(env, appEnv, problems);

  if (problems.length) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);

  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    appEnv: appEnv as Config['appEnv'],
    tokenSecret,
    timezone,
    logLevel: env.LOG_LEVEL || 'info',
    webhooks,
  };
}
