import { fail, notFound, ok } from '../kernel/outcome.ts';
import { findById, readId, readString } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { readPaging } from '../kernel/paging.ts';
import { visibleShipments } from '../shipments/index.ts';
import { caseViews } from './present.ts';
import { CASE_DOCS } from './schema.ts';
import { createCase, findCase, linkFreight, linksOf, listCases } from './store.ts';
import { caseAdded, casePage, casesPage, linked } from './views.tsx';

const MAX_NAME = 200;

export function caseEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'GET',
      path: '/cdr/cases/index',
      doc: CASE_DOCS.index,
      async handle(ctx) {
        const rows = await listCases(ctx.db, ctx.caller, readPaging(ctx.params));
        return ok({ cases: await caseViews(ctx.db, ctx.clock, ctx.caller, rows) });
      },
      page: (outcome, ctx) => casesPage(ctx, outcome.kind === 'ok' ? outcome.data.cases : [], readPaging(ctx.params)),
    }),
    userEndpoint({
      method: 'POST',
      path: '/cdr/cases/add',
      doc: CASE_DOCS.add,
      async handle(ctx) {
        const name = (readString(ctx.params.name) ?? '').trim();
        if (!name) return fail(ctx.t, 'cases.name_required');
        if (name.length > MAX_NAME) return fail(ctx.t, 'cases.name_too_long', { max: MAX_NAME });
        const row = await createCase(ctx.db, ctx.clock.now(), ctx.caller, name);
        return ok({ case: (await caseViews(ctx.db, ctx.clock, ctx.caller, [row]))[0]! });
      },
      page: caseAdded,
    }),
    userEndpoint({
      method: 'GET',
      path: '/cdr/cases/view/:id',
      doc: CASE_DOCS.view,
      async handle(ctx) {
        const row = await findById(ctx.path.id, (id) => findCase(ctx.db, ctx.caller, id));
        if (!row) return notFound();
        return ok({ case: (await caseViews(ctx.db, ctx.clock, ctx.caller, [row]))[0]! });
      },
      page: (outcome, ctx) =>
        outcome.kind === 'ok' ? casePage(ctx, outcome.data.case) : { redirect: '/cdr/cases/index', ok: false, message: outcome.message },
    }),
    userEndpoint({
      method: 'POST',
      path: '/cdr/cases/link/:id',
      doc: CASE_DOCS.link,
      async handle(ctx) {
        const row = await findById(ctx.path.id, (id) => findCase(ctx.db, ctx.caller, id));
        if (!row) return notFound();
        const raw = ctx.params.route_id ?? ctx.params.route;
        const routeId = readId(raw);
        if (raw === undefined || raw === '') return fail(ctx.t, 'cases.route_required');
        // Only a shipment the caller may see can be linked; another one answers like a missing one.
        const visible = routeId === undefined ? new Map() : await visibleShipments(ctx.db, ctx.clock, ctx.caller, [routeId]);
        if (routeId === undefined || !visible.has(routeId))
          return fail(ctx.t, 'cases.route_not_found', { id: String(readString(raw) ?? '').slice(0, 20) });
        await linkFreight(ctx.db, ctx.clock.now(), ctx.caller, row.id, routeId);
        const links = (await linksOf(ctx.db, [row.id])).get(row.id) ?? [];
        const shipments = await visibleShipments(
          ctx.db,
          ctx.clock,
          ctx.caller,
          links.map((l) => l.freight_id),
        );
        return ok({ routes: links.flatMap((l) => shipments.get(l.freight_id) ?? []) });
      },
      page: linked,
    }),
  ];
}

/** The case records' place in the menu. */
export const CASES_SECTION = { prefix: '/cdr/cases', href: '/cdr/cases/index', label: 'nav.cases' } as const;
