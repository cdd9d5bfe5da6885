import { companyRefs, namesOfCompanies } from '../accounts/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { translator } from '../kernel/i18n.ts';
import { readLocaleDateTime, readLocaleDecimal } from '../kernel/locale.ts';
import { fail, failWith, notFound, ok, type Outcome } from '../kernel/outcome.ts';
import { isRecord, readFlag, readId } from '../kernel/params.ts';
import { userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import { readPickedCompanies } from '../freights-http/index.ts';
import { partnerCompanies } from '../freights/index.ts';
import { lastMediansOf } from '../lanes/index.ts';
import { ratingSummaries } from '../trust/index.ts';
import { CSV_TEMPLATE, readAwards, readBids, readTender, type Problem } from './input.ts';
import { presentContract, presentTender, presentTenderRow, type ContractView, type TenderRowView, type TenderView } from './present.ts';
import { TENDER_DOCS } from './schema.ts';
import type { TenderRow } from './tables.ts';
import {
  awardedTotal,
  awardTender,
  contractsOf,
  createTender,
  lanesWithBids,
  placeBids,
  publishTender,
  tendersOf,
  visibleTender,
  type Result,
} from './tenders.ts';
import type { Services } from '../kernel/context.ts';
import { contractsPage, evaluationPage, evaluationText, SHOWN_BIDS, tendersPage, tenderPage, type Evaluation } from './views.tsx';

/** The lane tenders' endpoints (docs/reference.md#tenders): HTTP in, one call of tenders.ts, outcome out; the pages from the same spec. */

const viewPath = (id: number) => `/tenders/view/${id}`;

/** A page form's rows (`bids[3][price]`: qs gives an array, or an object past its array limit) without those whose `field` is empty. */
function formRows(value: unknown, field: string): Array<Record<string, unknown>> {
  const rows = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];
  return rows.filter((r): r is Record<string, unknown> => isRecord(r) && String(r[field] ?? '').trim() !== '');
}

/** A refusal with the field it names (`data.errors`), in the caller's words. */
function refused(ctx: Ctx<Caller>, p: Problem): Outcome<never> {
  const errors = [
    {
      field: p.field ?? '',
      ...(p.position ? { position: p.position } : {}),
      ...(p.line ? { line: p.line, column: p.column } : {}),
      reason: ctx.t(p.code, p.vars),
    },
  ];
  return fail(ctx.t, p.code, p.vars, { errors });
}

function refusalOf(ctx: Ctx<Caller>, r: Exclude<Result<unknown>, { kind: 'ok' }>, what: 'bid' | 'award'): Outcome<never> {
  if (r.kind === 'not_found') return notFound();
  if (r.position !== undefined) {
    const reason = r.field === 'company' ? 'tenders.reason.company' : 'tenders.reason.lane';
    return refused(ctx, {
      code: r.reason,
      vars: { position: r.position, field: r.field ?? '', reason: ctx.t(reason) },
      field: `${what === 'bid' ? 'bids' : 'awards'}[${r.position - 1}].${r.field}`,
      position: r.position,
    });
  }
  return fail(ctx.t, r.reason);
}

/**
 * The tender as the caller reads it now (sealed: lanesWithBids). `shown`: the owner's evaluation
 * page, whose lanes carry the cheapest `shown` bids and their count, not every bid, and whose
 * market prices (`medians`) are read once the lanes are and ride to the page.
 */
async function readView(ctx: Ctx<Caller>, t: TenderRow, shown?: number): Promise<{ tender: TenderView; medians?: Map<string, number> }> {
  const evaluation = shown !== undefined && t.company_id === ctx.caller.companyId;
  const { lanes, bids, counts } = await lanesWithBids(ctx.db, ctx.clock, ctx.caller, t, evaluation ? shown : undefined);
  const companies = new Set<number>([t.company_id]);
  for (const b of bids) companies.add(b.company_id);
  const [names, markets] = await Promise.all([
    namesOfCompanies(ctx.db, [...companies]),
    evaluation
      ? lastMediansOf(
          ctx,
          lanes.map((l) => ({ from: l.from_pattern, to: l.to_pattern })),
          t.currency,
        )
      : undefined,
  ]);
  return { tender: presentTender(ctx, t, lanes, bids, names, counts), ...(markets ? { medians: markets } : {}) };
}

/** Whether the caller reads the tender's evaluation (its owner, from the deadline on). */
const evaluates = (ctx: Ctx<Caller>, t: { company_id: number; status: string }) =>
  t.company_id === ctx.caller.companyId && t.status !== 'draft' && t.status !== 'open';

/**
 * The owner's evaluation: per lane the bids by price with each bidder's verified mark and rating, and the lane's market price (§14)
 * (`read`: the medians as readView read them).
 */
async function readEvaluation(ctx: Ctx<Caller>, tender: TenderView, read?: Map<string, number>): Promise<Evaluation> {
  const bidders = [...new Set(tender.lanes.flatMap((l) => (l.bids ?? []).map((b) => b.company)))];
  // Every lane's market price in one statement (lanes: lastMediansOf), beside the bidders' marks and ratings.
  const [refs, ratings, medians] = await Promise.all([
    companyRefs(ctx.db, bidders.slice(0, 500)),
    ratingSummaries(ctx.db, bidders),
    read ?? lastMediansOf(ctx, tender.lanes, tender.currency),
  ]);
  const markets = new Map<string, number | null>();
  for (const l of tender.lanes) markets.set(`${l.from}>${l.to}`, medians.get(`${l.from}>${l.to}`) ?? null);
  return { refs, ratings, markets };
}

/** The owner's evaluation as CSV (GET /tenders/export): from the deadline on; else undefined (404). */
export async function evaluationExport(services: Services, caller: Caller, id: number): Promise<{ name: string; csv: string } | undefined> {
  const t = await visibleTender(services.db, services.clock, caller, id);
  if (!t || t.company_id !== caller.companyId || t.status === 'draft' || t.status === 'open') return undefined;
  const ctx = { ...services, services, caller, t: translator('eng'), language: 'eng', params: {} } as unknown as Ctx<Caller>;
  const view = (await readView(ctx, t)).tender;
  return { name: t.name, csv: evaluationText(view, await readEvaluation(ctx, view)) };
}

export function tenderEndpoints(): Endpoint[] {
  const pathId = (ctx: Ctx<Caller>) => readId(ctx.path.id);
  return [
    userEndpoint<{ tenders: TenderRowView[] }>({
      method: 'GET',
      path: '/tenders/index',
      doc: TENDER_DOCS.index,
      reads: 'replica',
      async handle(ctx) {
        const rows = await tendersOf(ctx.db, ctx.clock, ctx.caller);
        const names = await namesOfCompanies(
          ctx.db,
          rows.map((r) => r.company_id),
        );
        return ok({ tenders: rows.map((r) => presentTenderRow(ctx.clock, r, names)) });
      },
      page: async (outcome, ctx) => tendersPage(ctx, outcome, CSV_TEMPLATE, await partnerCompanies(ctx.db, ctx.caller.companyId)),
    }),
    userEndpoint<{ tender: TenderView }>({
      method: 'POST',
      path: '/tenders/add',
      doc: TENDER_DOCS.add,
      bodyLimit: 4 * 1024 * 1024,
      async handle(ctx) {
        // The page's deadline as a dispatcher types it (`31.01.2031 12:00` too).
        if (ctx.format === 'html') {
          ctx.params.deadline = readLocaleDateTime(ctx.params.deadline) ?? ctx.params.deadline;
          // The invited companies by name (the freight form's picker): their ids; a name no company has refuses the tender.
          const unknown = await readPickedCompanies(ctx, { field: 'invited_names', target: 'invited' });
          if (unknown) {
            const reason = ctx.t('form.error.companies', { names: unknown.join(', ') });
            return failWith('tenders.invited_invalid', reason, { errors: [{ field: 'invited', reason }] });
          }
        }
        const read = await readTender(ctx);
        if (!read.ok) return refused(ctx, read.problem);
        const { tender, lanes } = await createTender(ctx.db, ctx.clock, ctx.caller, read.tender);
        const names = await namesOfCompanies(ctx.db, [tender.company_id]);
        return ok({ tender: presentTender(ctx, tender, lanes, [], names) });
      },
      page(outcome, ctx): PageResult {
        if (outcome.kind === 'ok') return { redirect: viewPath(outcome.data.tender.id), ok: true, message: ctx.t('tenders.created') };
        const errors =
          isRecord(outcome.data) && Array.isArray(outcome.data.errors)
            ? (outcome.data.errors as Array<{ line?: number; column?: number; reason: string }>)
            : [];
        const where = errors[0]?.line
          ? ctx.t('tenders.csv_error', { line: errors[0].line, column: errors[0].column ?? 1, reason: errors[0].reason })
          : outcome.message;
        return { redirect: '/tenders/index', ok: false, message: where };
      },
    }),
    userEndpoint<{ tender: TenderView }>({
      method: 'POST',
      path: '/tenders/publish/:id',
      doc: TENDER_DOCS.publish,
      async handle(ctx) {
        const id = pathId(ctx);
        if (id === undefined) return notFound();
        const r = await publishTender(ctx.db, ctx.clock, ctx.caller, id);
        if (r.kind !== 'ok') return r.kind === 'not_found' ? notFound() : fail(ctx.t, r.reason);
        return ok({ tender: (await readView(ctx, r.value)).tender });
      },
      page(outcome, ctx): PageResult {
        const id = pathId(ctx) ?? 0;
        return outcome.kind === 'ok'
          ? { redirect: viewPath(id), ok: true, message: ctx.t('tenders.published') }
          : { redirect: viewPath(id), ok: false, message: outcome.message };
      },
    }),
    userEndpoint<{ tender: TenderView; medians?: Map<string, number> }>({
      method: 'GET',
      path: '/tenders/view/:id',
      doc: TENDER_DOCS.view,
      async handle(ctx) {
        const id = pathId(ctx);
        const t = id === undefined ? undefined : await visibleTender(ctx.db, ctx.clock, ctx.caller, id);
        if (!t) return notFound();
        // The owner's evaluation page reads the bids it shows (`all=1`: every one); the JSON every bid.
        const shown = ctx.format === 'html' && evaluates(ctx, t) && readFlag(ctx.params.all) !== 1 ? SHOWN_BIDS : undefined;
        // The page's market prices ride along (never in the JSON: `shown` is the page's alone).
        return ok(await readView(ctx, t, shown));
      },
      async page(outcome, ctx) {
        if (outcome.kind !== 'ok') return tenderPage(ctx, outcome, undefined);
        const t = outcome.data.tender;
        const mine = t.company.id === ctx.caller.companyId;
        const owned = mine && t.status !== 'draft' && t.status !== 'open';
        const [evaluation, awarded] = await Promise.all([
          owned ? readEvaluation(ctx, t, outcome.data.medians) : undefined,
          owned && t.status === 'awarded' ? awardedTotal(ctx.db, t.id) : undefined,
        ]);
        if (evaluation && awarded !== undefined) evaluation.awarded = awarded;
        return mine && evaluation
          ? evaluationPage(ctx, t, evaluation, readFlag(ctx.params.all) === 1)
          : tenderPage(ctx, outcome, evaluation);
      },
    }),
    userEndpoint<{ tender: TenderView }>({
      method: 'POST',
      path: '/tenders/bid/:id',
      doc: TENDER_DOCS.bid,
      bodyLimit: 1024 * 1024,
      async handle(ctx) {
        const id = pathId(ctx);
        if (id === undefined) return notFound();
        // The page's form holds a row per lane: a row without a price is no bid.
        // Its prices as the dispatcher types them (`950,50` in German).
        if (ctx.format === 'html')
          ctx.params.bids = formRows(ctx.params.bids, 'price').map((b) => ({
            ...b,
            price: readLocaleDecimal(b.price, ctx.language) ?? b.price,
          }));
        const read = readBids(ctx);
        if (!read.ok) return refused(ctx, read.problem);
        const r = await placeBids(ctx.db, ctx.clock, ctx.caller, id, read.bids);
        if (r.kind !== 'ok') return refusalOf(ctx, r, 'bid');
        return ok({ tender: (await readView(ctx, r.value)).tender });
      },
      page(outcome, ctx): PageResult {
        const id = pathId(ctx) ?? 0;
        return outcome.kind === 'ok'
          ? { redirect: viewPath(id), ok: true, message: ctx.t('tenders.bid_done') }
          : { redirect: viewPath(id), ok: false, message: outcome.message };
      },
    }),
    userEndpoint<{ tender: TenderView; contracts: ContractView[] }>({
      method: 'POST',
      path: '/tenders/award/:id',
      doc: TENDER_DOCS.award,
      bodyLimit: 2 * 1024 * 1024,
      async handle(ctx) {
        const id = pathId(ctx);
        if (id === undefined) return notFound();
        // The evaluation page's form holds a rank per bid: a bid without a rank is not awarded.
        if (ctx.format === 'html') ctx.params.awards = formRows(ctx.params.awards, 'rank');
        const read = readAwards(ctx);
        if (!read.ok) return refused(ctx, read.problem);
        const r = await awardTender(ctx.db, ctx.clock, ctx.caller, id, read.awards);
        if (r.kind !== 'ok') return refusalOf(ctx, r, 'award');
        const names = await namesOfCompanies(ctx.db, [r.value.tender.company_id, ...r.value.contracts.map((c) => c.carrier_id)]);
        return ok({
          tender: (await readView(ctx, r.value.tender)).tender,
          contracts: r.value.contracts.map((c) => presentContract(c, names)),
        });
      },
      page(outcome, ctx): PageResult {
        const id = pathId(ctx) ?? 0;
        return outcome.kind === 'ok'
          ? { redirect: '/contracts/index', ok: true, message: ctx.t('tenders.awarded_done') }
          : { redirect: viewPath(id), ok: false, message: outcome.message };
      },
    }),
    userEndpoint<{ contracts: ContractView[] }>({
      method: 'GET',
      path: '/contracts/index',
      doc: TENDER_DOCS.contracts,
      reads: 'replica',
      async handle(ctx) {
        const rows = await contractsOf(ctx.db, ctx.caller.companyId);
        const names = await namesOfCompanies(
          ctx.db,
          rows.flatMap((c) => [c.shipper_id, c.carrier_id]),
        );
        return ok({ contracts: rows.map((c) => presentContract(c, names)) });
      },
      page: (outcome, ctx) => contractsPage(ctx, outcome),
    }),
  ];
}
