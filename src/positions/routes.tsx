import type { Caller, Ctx } from '../kernel/context.ts';
import { fail, notFound, ok, type Outcome } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import { publicEndpoint, userEndpoint, type Endpoint } from '../kernel/route.tsx';
import type { Clock } from '../kernel/time.ts';
import { issueLink, liveLinks, openLink, revokeLinks } from '../links/index.ts';
import { loadVisibleFreight, type FreightView } from '../freights/index.ts';
import type { TrackedFreight } from './tracked.ts';
import { POSITION_DOCS } from './schema.ts';
import {
  ensureTracking,
  freightToTrack,
  MAX_POSITIONS,
  readPositions,
  readsOf,
  readTracking,
  readTrackingOf,
  type TrackingView,
  roleIn,
  takePositions,
  trackedFreight,
  type PositionPoint,
  type SeenTracking,
} from './store.ts';
import { MILESTONE_TYPES, type PositionSource, type TrackingRow } from './tables.ts';
import { driverPage, TrackingSection, trackingPage, type SectionExtras, type TrackingData } from './views.tsx';

/**
 * Tracking by permission's endpoints (docs/reference.md#tracking): positions in (the winner's telematics,
 * the driver's phone through its link), where the load is (owner and winner), the driver's link
 * and its page. HTTP in, one call of store.ts, outcome out.
 */

const presentPosition = (p: PositionPoint, clock: Clock) => ({
  latitude: p.latitude,
  longitude: p.longitude,
  at: clock.format(p.at),
  speed: p.speed,
  source: p.source,
});

export function presentEta(t: TrackingRow | undefined, clock: Clock) {
  return t?.eta_at && t.km_left !== null ? { at: clock.format(t.eta_at), km_left: Number(t.km_left) } : null;
}

export function presentMilestones(t: TrackingRow | undefined, clock: Clock) {
  return t ? MILESTONE_TYPES.flatMap((type) => (t[type] ? [{ type, at: clock.format(t[type]) }] : [])) : [];
}

/** What a party reads: the freight's tracking, and for the winner who of the owner read it (the owner's read logged beside). */
export async function readForParty(ctx: Ctx<Caller>, freight: TrackedFreight, role: 'owner' | 'winner'): Promise<TrackingData> {
  const caller = ctx.caller;
  // The owner's read is logged by the statement that reads (one round trip); the winner's reads
  // the log beside.
  const [view, reads] = await Promise.all([
    readTracking(
      ctx.db,
      freight.id,
      role === 'owner'
        ? { who: { companyId: caller.companyId, userId: caller.userId, name: caller.realname || caller.email }, now: ctx.clock.now() }
        : undefined,
    ),
    role === 'owner' ? undefined : readsOf(ctx.db, freight.id),
  ]);
  return present(ctx, view, reads);
}

/** A party's read as the answer gives it (`reads`: the winner's). */
function present(ctx: Ctx<Caller>, view: TrackingView, reads: Awaited<ReturnType<typeof readsOf>> | undefined): TrackingData {
  const data: TrackingData = {
    positions: view.positions.map((p) => presentPosition(p, ctx.clock)),
    eta: presentEta(view.tracking, ctx.clock),
    milestones: presentMilestones(view.tracking, ctx.clock),
    late: !!view.tracking?.late,
  };
  if (reads) data.reads = reads.map((r) => ({ user: { id: r.user_id, name: r.user_name }, at: ctx.clock.format(r.at) }));
  return data;
}

/** What the section shows beside the data: the winner's driver links still open. */
export async function extrasOf(ctx: Ctx<Caller>, freight: TrackedFreight, role: 'owner' | 'winner'): Promise<SectionExtras> {
  if (role !== 'winner' || !freight.underway) return { role };
  const links = await liveLinks(ctx.db, freight.id, 'tracking', ctx.clock.now());
  return { role, links: { count: links.length, expires: ctx.clock.formatShort(links[0]?.expires) } };
}

/** Positions in, all or none: refused whole with the first bad item named, or written with what they make. */
async function take(ctx: Ctx<Caller | null>, { freight, seen }: ToTrack, source: PositionSource) {
  const read = readPositions(ctx.params.positions, ctx.clock);
  if (!read.ok) {
    const vars = { item: read.item ?? 0, max: MAX_POSITIONS };
    const field = read.item === undefined ? 'positions' : `positions[${read.item}]${read.field ? `.${read.field}` : ''}`;
    return fail(ctx.t, read.problem, vars, { errors: [{ field, reason: ctx.t(read.problem, vars) }] });
  }
  return ok(await takePositions(ctx.services.db, ctx.clock, freight, seen, read.positions, source));
}

/** A freight positions are sent for, with its tracking row as read beside it (freightToTrack). */
interface ToTrack {
  freight: TrackedFreight;
  seen: SeenTracking | undefined;
}

/** The freight of a winner's request (with its tracking row): 404 for a company that may not see it; the owner, another company that may see it and a freight not underway: `status` = `error`. */
async function winnersFreight(ctx: Ctx<Caller>): Promise<ToTrack | Outcome<never>> {
  const id = readId(ctx.path.freightId);
  const tracked = id === undefined ? undefined : await freightToTrack(ctx.db, id);
  if (!tracked) return notFound();
  const { freight } = tracked;
  const role = roleIn(freight, ctx.caller.companyId);
  if (!role) {
    // A company that may see the freight (a bidder before the award, a former bidder) learns only
    // that positions are not its to send; anyone else cannot tell the freight from a missing one.
    if (!(await loadVisibleFreight(ctx.db, ctx.clock, ctx.caller, freight.id))) return notFound();
    return fail(ctx.t, freight.underway ? 'positions.winner_only' : 'positions.not_underway');
  }
  if (role === 'owner') return fail(ctx.t, freight.underway ? 'positions.winner_only' : 'positions.not_underway');
  if (!freight.underway) return fail(ctx.t, 'positions.not_underway');
  return tracked;
}

const isFreight = (v: ToTrack | Outcome<never>): v is ToTrack => !('kind' in v);

/** The freight page's part "where the load is", for its owner and winner once awarded (app.ts passes it to the freight page). */
export async function trackingSection(ctx: Ctx, route: FreightView) {
  if (!ctx.caller || typeof route.id !== 'number') return undefined;
  const caller = ctx.caller as Caller;
  const freight = await trackedFreight(ctx.db, route.id);
  const role = freight && roleIn(freight, caller.companyId);
  if (!freight || !role || freight.winner === null) return undefined;
  const c = ctx as Ctx<Caller>;
  const data = await readForParty(c, freight, role);
  return <TrackingSection ctx={c} freight={freight} data={data} extras={await extrasOf(c, freight, role)} />;
}

export function positionEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/freights/positions/:freightId',
      doc: POSITION_DOCS.post,
      async handle(ctx) {
        const tracked = await winnersFreight(ctx);
        if (!isFreight(tracked)) return tracked;
        const taken = await take(ctx, tracked, 'api');
        if (taken.kind !== 'ok') return taken;
        const { stored, tracking } = taken.data;
        return ok({ stored, eta: presentEta(tracking, ctx.clock), milestones: presentMilestones(tracking, ctx.clock) });
      },
      page: (outcome, ctx) => ({
        redirect: `/freights/positions/${readId(ctx.path.freightId) ?? ''}`,
        ok: outcome.kind === 'ok',
        message: outcome.kind === 'ok' ? undefined : outcome.message,
      }),
    }),
    userEndpoint({
      method: 'GET',
      path: '/freights/positions/:freightId',
      doc: POSITION_DOCS.get,
      async handle(ctx): Promise<Outcome<TrackingData>> {
        // The freight, its tracking and the owner's read logged in one statement; the winner's
        // answer reads the log after it.
        const id = readId(ctx.path.freightId);
        const caller = ctx.caller;
        const who = { companyId: caller.companyId, userId: caller.userId, name: caller.realname || caller.email };
        const read = id === undefined ? undefined : await readTrackingOf(ctx.db, id, { who, now: ctx.clock.now() });
        const role = read && roleIn(read.freight, caller.companyId);
        if (!read || !role) return notFound();
        return ok(present(ctx, read.view, role === 'winner' ? await readsOf(ctx.db, read.freight.id) : undefined));
      },
      page: async (outcome, ctx) => {
        const freight = (await trackedFreight(ctx.db, readId(ctx.path.freightId)!))!;
        const role = roleIn(freight, ctx.caller.companyId) ?? 'owner';
        return trackingPage(ctx, freight, outcome.kind === 'ok' ? outcome.data : null, await extrasOf(ctx, freight, role));
      },
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/tracking-link/:freightId',
      doc: POSITION_DOCS.link,
      async handle(ctx) {
        const tracked = await winnersFreight(ctx);
        if (!isFreight(tracked)) return tracked;
        const { freight } = tracked;
        const now = ctx.clock.now();
        await ensureTracking(ctx.db, freight.id, now);
        const link = await issueLink(ctx.db, {
          freightId: freight.id,
          purpose: 'tracking',
          companyId: ctx.caller.companyId,
          userId: ctx.caller.userId,
          now,
        });
        const base = ctx.services.config.mail.publicUrl.replace(/\/+$/, '');
        return ok({ link: { url: `${base}/driver/${link.token}`, expires: ctx.clock.format(link.expires) } });
      },
      page: (outcome, ctx) => ({
        redirect: `/freights/positions/${readId(ctx.path.freightId) ?? ''}`,
        ok: outcome.kind === 'ok',
        message: outcome.kind === 'ok' ? ctx.t('tracking.link.created', { url: outcome.data.link.url }) : outcome.message,
      }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/tracking-link-revoke/:freightId',
      doc: POSITION_DOCS.revoke,
      async handle(ctx) {
        const id = readId(ctx.path.freightId);
        const freight = id === undefined ? undefined : await trackedFreight(ctx.db, id);
        const role = freight && roleIn(freight, ctx.caller.companyId);
        if (!freight || !role) return notFound();
        if (role === 'owner') return fail(ctx.t, 'positions.winner_only');
        return ok({ revoked: await revokeLinks(ctx.db, freight.id, ctx.clock.now(), 'tracking') });
      },
      page: (outcome, ctx) => ({
        redirect: `/freights/positions/${readId(ctx.path.freightId) ?? ''}`,
        ok: outcome.kind === 'ok',
        message: outcome.kind === 'ok' ? ctx.t('tracking.link.revoked') : outcome.message,
      }),
    }),
    // The driver's page and its positions: the token is the only permission, for this page only.
    publicEndpoint({
      method: 'GET',
      path: '/driver/:token',
      json: false,
      async handle(ctx) {
        const opened = await openLink(ctx.db, 'tracking', ctx.path.token ?? '', ctx.clock.now());
        const freight = opened && (await trackedFreight(ctx.db, opened.freightId));
        if (!opened || !freight?.underway) return notFound();
        return ok({ freight: freight.id, expires: opened.expires });
      },
      page: (outcome, ctx) => driverPage(ctx, outcome.kind === 'ok' ? outcome.data : null),
    }),
    publicEndpoint({
      method: 'POST',
      path: '/driver/:token',
      doc: POSITION_DOCS.driver,
      async handle(ctx) {
        const opened = await openLink(ctx.db, 'tracking', ctx.path.token ?? '', ctx.clock.now());
        const tracked = opened && (await freightToTrack(ctx.db, opened.freightId));
        // An ended link and a freight no longer underway (delivered) send nothing: the page stops.
        if (!opened || !tracked?.freight.underway || tracked.freight.winner !== opened.companyId) return notFound();
        const taken = await take(ctx, tracked, 'link');
        return taken.kind === 'ok' ? ok({ stored: taken.data.stored }) : taken;
      },
    }),
  ];
}
