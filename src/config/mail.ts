/**
 * E-mail settings (docs/reference.md#mail), from the environment (read by config.ts, listed in the
 * README): SMTP_URL and MAIL_FROM switch mail on; PUBLIC_URL is where links in mails point.
 */
export interface MailSettings {
  /** `smtp://[user:password@]host:port` or `smtps://…` (TLS from the first byte); unset: no mail is queued or sent. */
  smtpUrl: string | undefined;
  /** The sender, `Name <address>` or an address; required with SMTP_URL. */
  from: string | undefined;
  /** The exchange's address as users reach it, without a trailing slash: links in mails start with it. */
  publicUrl: string;
}

/** Whether the exchange sends mail: SMTP_URL set (config.ts refuses it without MAIL_FROM). */
export const sendsMail = (settings: MailSettings): settings is MailSettings & { smtpUrl: string; from: string } =>
  settings.smtpUrl !== undefined && settings.from !== undefined;

/** An address as RFC 5322 writes it, plainly: `local@domain`, or `Name <local@domain>`. */
const ADDRESS = /^(?:[^<>\r\n]{0,200}<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** Reads SMTP_URL, MAIL_FROM and PUBLIC_URL; problems are named by variable. */
export function readMailSettings(env: NodeJS.ProcessEnv, host: string, port: number, problems: string[]): MailSettings {
  const smtpText = env.SMTP_URL?.trim() || undefined;
  let smtpUrl: string | undefined;
  if (smtpText !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(smtpText);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname)
      problems.push('SMTP_URL must be smtp://[user:password@]host:port or smtps://… (TLS), e.g. smtp://mail.example.com:587');
    else smtpUrl = smtpText;
  }
  const from = env.MAIL_FROM?.trim() || undefined;
  if (from !== undefined && !ADDRESS.test(from))
    problems.push(`MAIL_FROM must be an e-mail address, or a name and an address (Freight Exchange <noreply@example.com>), got "${from}"`);
  if (smtpText !== undefined && from === undefined) problems.push('MAIL_FROM is required with SMTP_URL (the sender of every mail)');

  // Links in mails: the address users reach the exchange at (a proxy's), else the server's own.
  const fallback = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicText = (env.PUBLIC_URL?.trim() || fallback).replace(/\/+$/, '');
  let publicUrl = fallback;
  try {
    const url = new URL(publicText);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash && !url.username) publicUrl = publicText;
    else problems.push(`PUBLIC_URL must be an http:// or https:// address without query or user, got "${env.PUBLIC_URL}"`);
  } catch {
    problems.push(`PUBLIC_URL must be an http:// or https:// address, got "${env.PUBLIC_URL}"`);
  }
  return { smtpUrl, from: smtpUrl ? from : undefined, publicUrl };
}
