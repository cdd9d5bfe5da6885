import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import type { Answer } from '../kernel/outcome.ts';
import type { PageResult } from '../kernel/route.tsx';
import { DataTable, Pager, PostButton, text, type Column } from '../kernel/ui.tsx';
import { formatStamp } from '../kernel/locale.ts';
import { namesOfCompanies } from '../accounts/index.ts';
import type { FlightView } from './present.ts';

/**
 * HTML pages of flights (routes.ts). They render the JSON answers' data (`data.flights`); the
 * form posts to the same API path and lands back on the schedule with a flash message.
 */

function field(name: string, label: string, hint?: string, extra: Record<string, unknown> = {}) {
  return (
    <label>
      {label}
      <input name={name} {...extra} />
      {hint && <span class="hint">{hint}</span>}
    </label>
  );
}

/** GET /flights/index: the schedule, a booking request per flight, and the add form. */
export async function flightsPage(ctx: Ctx<Caller>, flights: FlightView[], paging: { page: number; limit: number }): Promise<Page> {
  const t = ctx.t;
  const lang = ctx.language;
  // Providers by name (the JSON gives company ids).
  const providers = await namesOfCompanies(
    ctx.db,
    flights.map((f) => f.company),
  );
  const csrf = ctx.reply.generateCsrf();
  const me = ctx.caller.companyId;
  const columns: Column<FlightView>[] = [
    { label: t('flv.col.number'), cell: (r) => text(r.flight_number) },
    { label: t('flv.col.from'), cell: (r) => text(r.from) },
    { label: t('flv.col.to'), cell: (r) => text(r.to) },
    { label: t('flv.col.etd'), cell: (r) => formatStamp(r.etd, lang) || '–' },
    { label: t('flv.col.eta'), cell: (r) => formatStamp(r.eta, lang) || '–' },
    { label: t('flv.col.provider'), cell: (r) => (r.company === me ? t('flv.own') : (providers.get(r.company) ?? '–')) },
    {
      label: '',
      cell: (r) => <PostButton action={`/freights/request/flight/${r.id}`} label={t('flv.request')} csrf={csrf} variant="secondary" />,
    },
  ];
  const href = (page: number, limit = paging.limit) =>
    `/flights/index?${new URLSearchParams({ page: String(page), limit: String(limit) })}`;
  return {
    title: t('flv.title'),
    body: (
      <section>
        <h1>{t('flv.title')}</h1>
        <DataTable columns={columns} rows={flights} empty={t('flv.empty')} testId="flights" />
        <Pager
          page={paging.page}
          limit={paging.limit}
          count={flights.length}
          href={(page) => href(page)}
          sizeHref={(limit, page) => href(page, limit)}
          t={t}
        />
        <h2>{t('flv.add')}</h2>
        <form class="stack panel" method="post" action="/flights/add">
          <CsrfField token={csrf} />
          <div class="form-grid">
            {field('flight_number', t('flv.number'), undefined, { required: true, maxLength: 20 })}
            {field('from', t('flv.col.from'), t('flv.iata.hint'), { required: true })}
            {field('to', t('flv.col.to'), t('flv.iata.hint'), { required: true })}
            {field('etd', t('flv.col.etd'), undefined, { required: true, type: 'datetime-local' })}
            {field('eta', t('flv.col.eta'), undefined, { required: true, type: 'datetime-local' })}
          </div>
          <div>
            <button type="submit">{t('flv.save')}</button>
          </div>
        </form>
      </section>
    ),
  };
}

/** POST /flights/add: back to the schedule with a flash either way. */
export function flightAdded(outcome: Answer<{ flight: FlightView }>, ctx: Ctx<Caller>): PageResult {
  if (outcome.kind === 'error') return { redirect: '/flights/index', ok: false, message: outcome.message };
  const number = outcome.data.flight.flight_number ?? '';
  return { redirect: '/flights/index', message: ctx.t('flv.saved', { number }) };
}
