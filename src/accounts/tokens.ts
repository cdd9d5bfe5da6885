import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API tokens are derived, never stored: token = `<userId>.<HMAC(secret, env:userId:nonce)>`.
 * Logging in again yields the same token (no rotation, no expiry), the database holds no token
 * (only the per-user nonce), and a token of the other environment fails the HMAC (a 401).
 */
export class TokenIssuer {
  constructor(
    private readonly secret: string,
    private readonly appEnv: string,
  ) {}

  issue(userId: number, nonce: string): string {
    return `${userId}.${this.mac(userId, nonce)}`;
  }

  /** The user id a token claims, or null for anything malformed. */
  claimedUser(token: string): number | null {
    const m = /^(\d{1,10})\.([A-Za-z0-9_-]{43})$/.exec(token);
    const id = m ? Number(m[1]) : 0;
    // User ids are PostgreSQL integers: a larger claim is no user (and must not reach the database).
    return id >= 1 && id <= 2147483647 ? id : null;
  }

  matches(token: string, userId: number, nonce: string): boolean {
    const expected = Buffer.from(this.issue(userId, nonce));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Secret for signing cookies, derived so that one secret configures everything. */
  cookieSecret(): string {
    return createHmac('sha256', this.secret).update('cookie-signing').digest('base64url');
  }

  /** A key for another purpose (mail's unsubscribe links), derived from the same secret. */
  derivedKey(purpose: string): Buffer {
    return createHmac('sha256', this.secret).update(`${this.appEnv}:key:${purpose}`).digest();
  }

  private mac(userId: number, nonce: string): string {
    return createHmac('sha256', this.secret).update(`${this.appEnv}:${userId}:${nonce}`).digest('base64url');
  }
}

export function newNonce(): string {
  return randomBytes(16).toString('base64url');
}
