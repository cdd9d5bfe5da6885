import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MailKind } from './tables.ts';
import { isMailKind } from './settings.ts';

/**
 * One-click unsubscribe (RFC 8058, docs/reference.md#mail): every mail carries a link that switches
 * its kind off for its user without a login. The token is `<user>.<kind>.<HMAC>`: unguessable
 * (256 bits keyed by a key derived from TOKEN_SECRET, accounts/tokens.ts), one per user and kind,
 * stored nowhere, and the same in every mail, so a link from an older mail still works.
 */
export class UnsubscribeTokens {
  constructor(private readonly key: Buffer) {}

  token(userId: number, kind: MailKind): string {
    return `${userId}.${kind}.${this.mac(userId, kind)}`;
  }

  /** The user and kind a token stands for, or null for anything else (malformed, or not ours). */
  read(token: string): { userId: number; kind: MailKind } | null {
    const m = /^(\d{1,10})\.([a-z]{1,20})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return null;
    const userId = Number(m[1]);
    const kind = m[2];
    if (userId < 1 || userId > 2147483647 || !isMailKind(kind)) return null;
    const expected = Buffer.from(this.mac(userId, kind));
    const given = Buffer.from(m[3]!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, kind } : null;
  }

  private mac(userId: number, kind: MailKind): string {
    return createHmac('sha256', this.key).update(`unsubscribe:${userId}:${kind}`).digest('base64url');
  }
}
