import type { Kysely } from 'kysely';
import {
  block,
  blockedCompanies,
  isBlocked,
  unblock,
  companyName,
  profilePath,
  PROFILE_FIELDS,
  readProfileInput,
  updateProfile,
  MAX_BLOCKS,
} from '../accounts/index.ts';
import type { DB } from '../db/schema.ts';
import { deliveredBetween, freightParties } from './parties.ts';
import type { Ctx } from '../kernel/context.ts';
import { sitePath } from '../kernel/format.ts';
import { fail, notFound, ok, type Answer, type Outcome, type Warning } from '../kernel/outcome.ts';
import { DEFAULT_LIMIT, findById, isOneOf, MAX_LIMIT, readId, readIntWithin, readString } from '../kernel/params.ts';
import { userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import type { Clock } from '../kernel/time.ts';
import { announce } from '../webhooks/index.ts';
import { COMPANY_PROFILE, RATING, TRUST_DOCS, type ProfileView, type RatingView } from './schema.ts';
import { insertRating, ratedFreights, ratingById, ratingsOf, readProfile, replyTo } from './store.ts';
import { SCORE_MAX, SCORE_MIN, TEXT_MAX } from './tables.ts';
import { blockedPage, editPage, profilePage, type ProfilePageData } from './views.tsx';

/**
 * Company profiles, the operator's verification shown, ratings after delivery and blocking
 * (docs/reference.md#trust). The profile fields and blocks are the accounts module's tables; the
 * ratings are this module's; what a freight's parties are is the freights module's.
 */

/** Delivered freights offered for rating on a profile page. */
const RATABLE = 20;

const presentProfile = (row: NonNullable<Awaited<ReturnType<typeof readProfile>>>, clock: Clock) => COMPANY_PROFILE.present(row, { clock });
const presentRating = (row: NonNullable<Awaited<ReturnType<typeof ratingById>>>, clock: Clock) => RATING.present(row, { clock });

/** POST /companies/rate/{freightId}: the parties of a delivered freight rate each other once. */
async function rate(ctx: Ctx): Promise<Outcome<{ rating: RatingView }>> {
  const freightId = readId(ctx.path.freightId);
  if (freightId === undefined) return notFound();
  const parties = await freightParties(ctx.db, freightId);
  const me = ctx.caller.companyId;
  if (!parties || (parties.owner !== me && parties.winner !== me)) return notFound();
  if (!parties.delivered || parties.winner === null) return fail(ctx.t, 'ratings.not_delivered');
  if (parties.owner === parties.winner) return fail(ctx.t, 'ratings.self');
  const score = readScore(ctx.params.score);
  if (score === undefined) return fail(ctx.t, 'ratings.score_invalid');
  const comment = ctx.params.comment === undefined || ctx.params.comment === null ? '' : readString(ctx.params.comment);
  // Not a text (a list, an object): the field's own code; a text too long: its bound.
  if (comment === undefined) return fail(ctx.t, 'ratings.comment_invalid', { max: TEXT_MAX });
  if (comment.length > TEXT_MAX) return fail(ctx.t, 'ratings.comment_too_long', { max: TEXT_MAX });
  const rated = parties.owner === me ? parties.winner : parties.owner;
  const now = ctx.clock.now();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const written = await insertRating(trx, { freightId, rater: me, rated, score, comment: comment.trim(), created: now });
    if (written !== undefined) {
      // The rated company hears of it (docs/reference.md#events), in the transaction of the rating.
      await announce(trx, ctx.clock, 'rating.received', [
        {
          companyId: rated,
          freightId,
          from: [me],
          data: async () => {
            const row = await ratingById(trx, written, rated);
            return { rating: row ? presentRating(row, ctx.clock) : null };
          },
        },
      ]);
    }
    return written;
  });
  if (id === undefined) return fail(ctx.t, 'ratings.already_rated');
  const row = await ratingById(ctx.db, id, me);
  return row ? ok({ rating: presentRating(row, ctx.clock) }) : notFound();
}

/** A score: a whole number from 1 to 5 (a number or its digits), else undefined. */
function readScore(raw: unknown): number | undefined {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d{1,2}\s*$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isInteger(n) && n >= SCORE_MIN && n <= SCORE_MAX ? n : undefined;
}

/** POST /companies/reply/{ratingId}: the rated company answers once; anyone else: 404. */
async function reply(ctx: Ctx): Promise<Outcome<{ rating: RatingView }>> {
  const found = await findById(ctx.path.id, (id) => ratingById(ctx.db, id, ctx.caller.companyId));
  if (!found || found.rated_id !== ctx.caller.companyId) return notFound();
  const text = readString(ctx.params.reply)?.trim();
  if (!text || text.length > TEXT_MAX) return fail(ctx.t, 'ratings.reply_required', { max: TEXT_MAX });
  if (!(await replyTo(ctx.db, found.id, text, ctx.clock.now()))) return fail(ctx.t, 'ratings.already_replied');
  const row = await ratingById(ctx.db, found.id, ctx.caller.companyId);
  return row ? ok({ rating: presentRating(row, ctx.clock) }) : notFound();
}

async function editProfile(ctx: Ctx): Promise<Outcome<{ company: ProfileView }>> {
  const me = ctx.caller.companyId;
  const current = await readProfile(ctx.db, me);
  if (!current) return notFound();
  const year = Number(ctx.clock.format(ctx.clock.now())?.slice(0, 4) ?? new Date().getUTCFullYear());
  const { values, problems, warnings } = readProfileInput(ctx.params, current.country, year);
  if (problems.length)
    return fail(ctx.t, 'companies.invalid', { fields: problems.map((p) => `${p.field}: ${p.reason}`).join('; ') }, { errors: problems });
  await updateProfile(ctx.db, me, values);
  const row = await readProfile(ctx.db, me);
  return row ? ok({ company: presentProfile(row, ctx.clock) }, warnings.length ? warnings : undefined) : notFound();
}

async function setBlock(ctx: Ctx, on: boolean): Promise<Outcome<{ company: { id: number; name: string; blocked: boolean } }>> {
  const id = readId(ctx.path.id);
  if (id === undefined) return notFound();
  const me = ctx.caller.companyId;
  if (on) {
    const result = await block(ctx.db, me, id, ctx.clock.now());
    if (result === 'unknown') return notFound();
    if (result === 'self') return fail(ctx.t, 'companies.block_self');
    if (result === 'too_many') return fail(ctx.t, 'companies.too_many_blocks', { max: MAX_BLOCKS });
  } else if (!(await unblock(ctx.db, me, id))) return notFound();
  const name = (await companyName(ctx.db, id)) ?? '';
  return ok({ company: { id, name, blocked: on } });
}

/** HTML forms come back to the page they were sent from (a freight page, a profile, the blocked list). */
function back(fallback: (ctx: Ctx) => string, message: (outcome: Answer, ctx: Ctx) => string | undefined) {
  return (outcome: Answer, ctx: Ctx): PageResult => {
    const to = sitePath(readString(ctx.params.back));
    const target = to && /^\/(freights\/view|companies)\//.test(to) ? to : fallback(ctx);
    return { redirect: target, ok: outcome.kind === 'ok', message: outcome.kind === 'error' ? outcome.message : message(outcome, ctx) };
  };
}

/** What the profile page shows besides the profile: ratings, the caller's rate form and block state. */
async function profilePageData(db: Kysely<DB>, ctx: Ctx, id: number, page: number): Promise<Omit<ProfilePageData, 'profile'>> {
  const me = ctx.caller.companyId;
  const limit = DEFAULT_LIMIT;
  const [ratings, delivered, blocked] = await Promise.all([
    ratingsOf(db, id, me, limit, (page - 1) * limit),
    id === me ? Promise.resolve([]) : deliveredBetween(db, me, id, RATABLE),
    id === me ? Promise.resolve(false) : isBlocked(db, me, id),
  ]);
  const rated = await ratedFreights(
    db,
    me,
    delivered.map((f) => f.id),
  );
  return {
    ratings: ratings.map((r) => presentRating(r, ctx.clock)),
    page,
    ratable: delivered.filter((f) => !rated.has(f.id)),
    blocked,
    own: id === me,
  };
}

/** A functional failure on a profile page: back to the own profile with its message. */
const backToProfile = (ctx: Ctx, message: string): PageResult => ({ redirect: profilePath(ctx.caller.companyId), ok: false, message });

const blockedName = (o: Answer) => (o.kind === 'ok' ? (o.data as { company: { name: string } }).company.name : '');

export const TRUST_SECTION = { prefix: '/companies', href: '/companies/edit', label: 'nav.company' } as const;

export function trustEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/companies/view/:id',
      doc: TRUST_DOCS.view,
      async handle(ctx) {
        const found = await findById(ctx.path.id, (id) => readProfile(ctx.db, id));
        return found ? ok({ company: presentProfile(found, ctx.clock) }) : notFound();
      },
      async page(outcome, ctx) {
        // handle answers a profile or not_found, which is the 404 page (kernel/route.tsx); an error has none to show.
        if (outcome.kind !== 'ok') return backToProfile(ctx, outcome.message);
        const profile = outcome.data.company;
        const page = readIntWithin(ctx.params.page, 1, 1, 10_000);
        return profilePage(ctx, { profile, ...(await profilePageData(ctx.db, ctx, profile.id, page)) });
      },
    }),
    userEndpoint({
      // The settings page of the company's own profile (its form posts to /companies/edit).
      method: 'GET',
      path: '/companies/edit',
      json: false,
      async handle(ctx) {
        const found = await readProfile(ctx.db, ctx.caller.companyId);
        return found ? ok({ company: presentProfile(found, ctx.clock) }) : notFound();
      },
      page: (outcome, ctx) => editPage(ctx, outcome.kind === 'ok' ? outcome.data.company : undefined),
    }),
    userEndpoint({
      method: 'POST',
      path: '/companies/edit',
      doc: TRUST_DOCS.edit,
      handle: editProfile,
      async page(outcome, ctx) {
        if (outcome.kind === 'ok') return { redirect: '/companies/edit', message: ctx.t('company.saved') };
        const found = await readProfile(ctx.db, ctx.caller.companyId);
        const errors = ((outcome.data as { errors?: Warning[] } | undefined)?.errors ?? []) as Warning[];
        // The page names each problem in the reader's language beside its field (the API's reasons are English).
        const problem = (field: string) => (isOneOf(PROFILE_FIELDS, field) ? ctx.t(`company.problem.${field}`) : field);
        return editPage(
          ctx,
          found ? presentProfile(found, ctx.clock) : undefined,
          errors.length ? ctx.t('company.form.problems') : outcome.message,
          {
            typed: ctx.params as Record<string, unknown>,
            problems: Object.fromEntries(errors.map((e) => [e.field, problem(e.field)])),
          },
        );
      },
    }),
    userEndpoint({
      method: 'POST',
      path: '/companies/rate/:freightId',
      doc: TRUST_DOCS.rate,
      handle: rate,
      page: back(
        () => '/companies/edit',
        (_o, ctx) => ctx.t('company.rated'),
      ),
    }),
    userEndpoint({
      method: 'GET',
      path: '/companies/ratings/:id',
      doc: TRUST_DOCS.ratings,
      async handle(ctx) {
        const found = await findById(ctx.path.id, (id) => readProfile(ctx.db, id));
        if (!found) return notFound();
        const limit = readIntWithin(ctx.params.limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        const page = readIntWithin(ctx.params.page, 1, 1, 100_000);
        const rows = await ratingsOf(ctx.db, found.id, ctx.caller.companyId, limit, (page - 1) * limit);
        return ok({ ratings: rows.map((r) => presentRating(r, ctx.clock)), count: found.ratings.count });
      },
      page: (_outcome, ctx) => ({ redirect: profilePath(readId(ctx.path.id) ?? ctx.caller.companyId) }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/companies/reply/:id',
      doc: TRUST_DOCS.reply,
      handle: reply,
      page: back(
        (ctx) => profilePath(ctx.caller.companyId),
        (_o, ctx) => ctx.t('company.replied'),
      ),
    }),
    userEndpoint({
      method: 'POST',
      path: '/companies/block/:id',
      doc: TRUST_DOCS.block,
      handle: (ctx) => setBlock(ctx, true),
      page: back(
        () => '/companies/blocked',
        (o, ctx) => (o.kind === 'ok' ? ctx.t('company.blocked', { company: blockedName(o) }) : undefined),
      ),
    }),
    userEndpoint({
      method: 'POST',
      path: '/companies/unblock/:id',
      doc: TRUST_DOCS.unblock,
      handle: (ctx) => setBlock(ctx, false),
      page: back(
        () => '/companies/blocked',
        (o, ctx) => (o.kind === 'ok' ? ctx.t('company.unblocked', { company: blockedName(o) }) : undefined),
      ),
    }),
    userEndpoint({
      method: 'GET',
      path: '/companies/blocked',
      doc: TRUST_DOCS.blocked,
      async handle(ctx) {
        return ok({ companies: await blockedCompanies(ctx.db, ctx.caller.companyId) });
      },
      page: (outcome, ctx) => blockedPage(ctx, outcome.kind === 'ok' ? outcome.data.companies : []),
    }),
  ];
}
