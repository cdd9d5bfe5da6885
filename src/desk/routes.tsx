import type { Ctx } from '../kernel/context.ts';
import { ok } from '../kernel/outcome.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { workQueue } from './queue.ts';
import { deskPage, type DeskData } from './views.tsx';

/**
 * The start page `/` (HTML only): the dispatcher's work queue (views.tsx). "What changed" starts
 * when the user last looked: a cookie of this browser keeps, for its user, the start of the
 * changes shown and the time of the last look. A look more than LOOK_GAP after the one before
 * starts a new stretch of work, whose changes begin at that earlier look; within a stretch a
 * reload shows the same changes. Without the cookie, the last seven days.
 */

const SEEN_COOKIE = 'fx_desk';
/** A pause longer than this between two looks starts anew (30 minutes). */
const LOOK_GAP_MS = 30 * 60_000;
/** The changes of a first look (no cookie): seven days. */
const FIRST_LOOK_MS = 7 * 86_400_000;
const COOKIE_OPTIONS = { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: 400 * 86_400 } as const;

/**
 * The start of "what changed" for this look (null: a first look, the last seven days) and the
 * cookie for the next: `user.since.last` in epoch ms, `since` 0 for a first look's stretch.
 */
export function lookedAt(cookie: string | undefined, userId: number, now: number): { since: number | null; cookie: string } {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(cookie ?? '');
  const mine = m !== null && Number(m[1]) === userId;
  const since = mine ? Number(m[2]) : 0;
  const last = mine ? Number(m[3]) : null;
  // A new stretch of work: its changes start at the look before; within one, they stay.
  let start: number | null;
  if (last === null || last > now) start = null;
  else if (now - last > LOOK_GAP_MS) start = last;
  else start = since === 0 ? null : since;
  return { since: start, cookie: `${userId}.${start ?? 0}.${now}` };
}

export function deskEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/',
      json: false,
      async handle(ctx: Ctx) {
        const now = ctx.clock.now().getTime();
        const look = lookedAt(ctx.req.cookies[SEEN_COOKIE], ctx.caller.userId, now);
        ctx.reply.setCookie(SEEN_COOKIE, look.cookie, COOKIE_OPTIONS);
        const since = new Date(look.since ?? now - FIRST_LOOK_MS);
        const queue = await workQueue(ctx.db, ctx.clock, ctx.caller.companyId, since);
        const data: DeskData = { queue, since: look.since === null ? null : ctx.clock.format(since) };
        return ok(data);
      },
      page: (outcome, ctx) => (outcome.kind === 'ok' ? deskPage(outcome.data, ctx) : { redirect: '/users/login', ok: false }),
    }),
  ];
}
