import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing (docs/reference.md#events), by the specification's reference library:
 * `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed by the
 * base64-decoded part of the `whsec_` secret.
 */

/** `whsec_` + base64 of 32 random bytes (the specification asks for 24 to 64). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The secret as lists show it: enough to recognise, never enough to sign. */
export function maskSecret(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

export function signedHeaders(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  };
}
