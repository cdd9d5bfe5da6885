/**
 * Delivery settings, from the environment (read by src/config.ts, listed in the README).
 * Defaults follow the Standard Webhooks example schedule: 9 retries over about 75 hours.
 */
/** Which receiver addresses a webhook may reach (WEBHOOK_ALLOW_PRIVATE; webhooks/address.ts applies it). */
export type AddressRule = 'public' | 'loopback' | 'any';

export interface WebhookSettings {
  /** Delay before retry n (seconds); a delivery fails for good after the last. */
  retryDelays: number[];
  /** How often an idle dispatcher looks for due deliveries. */
  pollMs: number;
  /** Whole-request timeout for a receiver (connect, headers, answer). */
  timeoutMs: number;
  /**
   * Which receiver addresses webhooks may reach (WEBHOOK_ALLOW_PRIVATE): `public` (`false`;
   * always with APP_ENV=production), `loopback` (public and loopback: the demo's default),
   * `any` (`true`).
   */
  addresses: AddressRule;
}

export const DEFAULT_RETRY_DELAYS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
const DAY = 86400;

function readInteger(text: string | undefined, fallback: number, min: number, max: number, name: string, problems: string[]): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
    return fallback;
  }
  return n;
}

/**
 * WEBHOOK_ALLOW_PRIVATE: receivers on loopback, private and link-local addresses. Unset in the
 * demo environment, only the server's own loopback besides public addresses (integrators run a
 * receiver on their machine against a local demo server; a wider default would let any account
 * probe the server's network); `true` allows every address, `false` only public ones. Never in
 * production, where docs/reference.md#events refuses them.
 */
function readAddressRule(text: string | undefined, appEnv: string, problems: string[]): AddressRule {
  const production = appEnv === 'production';
  const value = (text ?? '').trim().toLowerCase();
  if (value === '') return production ? 'public' : 'loopback';
  if (value !== 'true' && value !== 'false') {
    problems.push(`WEBHOOK_ALLOW_PRIVATE must be true or false, got "${text}"`);
    return 'public';
  }
  if (value === 'true' && production) {
    problems.push('WEBHOOK_ALLOW_PRIVATE=true is not allowed with APP_ENV=production (private receiver addresses are refused there)');
    return 'public';
  }
  return value === 'true' ? 'any' : 'public';
}

/** Reads WEBHOOK_RETRY_DELAYS, WEBHOOK_POLL_MS, WEBHOOK_TIMEOUT_MS, WEBHOOK_ALLOW_PRIVATE; problems are named by variable. */
export function readWebhookSettings(env: NodeJS.ProcessEnv, appEnv: string, problems: string[]): WebhookSettings {
  let retryDelays = DEFAULT_RETRY_DELAYS;
  const schedule = env.WEBHOOK_RETRY_DELAYS;
  if (schedule !== undefined && schedule !== '') {
    const parts = schedule.split(',').map((p) => p.trim());
    const values = parts.map(Number);
    if (parts.length > 30 || parts.some((p) => !/^\d{1,6}(\.\d{1,3})?$/.test(p)) || values.some((v) => v > 7 * DAY)) {
      problems.push(`WEBHOOK_RETRY_DELAYS must be up to 30 comma-separated delays in seconds (each at most 7 days), got "${schedule}"`);
    } else if (appEnv === 'production' && values.reduce((a, b) => a + b, 0) < DAY) {
      // docs/reference.md#events: retries for at least 24 hours. Shorter schedules are for tests (demo).
      problems.push('WEBHOOK_RETRY_DELAYS must add up to at least 24 hours (86400 s) when APP_ENV=production');
    } else {
      retryDelays = values;
    }
  }
  return {
    retryDelays,
    pollMs: readInteger(env.WEBHOOK_POLL_MS, 1000, 10, 60_000, 'WEBHOOK_POLL_MS', problems),
    timeoutMs: readInteger(env.WEBHOOK_TIMEOUT_MS, 15_000, 100, 60_000, 'WEBHOOK_TIMEOUT_MS', problems),
    addresses: readAddressRule(env.WEBHOOK_ALLOW_PRIVATE, appEnv, problems),
  };
}
