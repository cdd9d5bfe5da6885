import type { CompanyRef } from '../accounts/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import { formatNumber } from '../kernel/locale.ts';
import type { Answer } from '../kernel/outcome.ts';
import { CompanyPicker } from '../freights-http/index.ts';
import { Facts, PostButton } from '../kernel/ui.tsx';
import { LOADS_MAX, RANK_MAX } from './tables.ts';
import type { ContractView, TenderRowView, TenderView } from './present.ts';

/**
 * The lane tenders' pages (English and German; tables become cards on a phone): the list with the
 * form of a new tender (its lanes as a CSV file read by the page's script into the form, or pasted),
 * a tender with the bidding form, the owner's evaluation per lane with the award form and its CSV
 * export, and the contracts.
 */

type C = Ctx<Caller>;
/**
 * Prices in the reader's language: a page makes its formatters once (making one costs more than
 * formatting a thousand prices with it), one per currency, kept for the page only; and formats a
 * price once (the evaluation's 5,000 bids repeat their prices: a formatting costs some µs, a look-up
 * a fraction of one).
 */
function moneyOf(lang: string) {
  const formats = new Map<string, { format: Intl.NumberFormat; done: Map<number, string> }>();
  return (n: number, currency: string) => {
    let f = formats.get(currency);
    if (!f) {
      f = {
        format: new Intl.NumberFormat(lang === 'deu' ? 'de-DE' : 'en-GB', { style: 'currency', currency, maximumFractionDigits: 2 }),
        done: new Map(),
      };
      formats.set(currency, f);
    }
    let text = f.done.get(n);
    if (text === undefined) {
      text = f.format.format(n);
      f.done.set(n, text);
    }
    return text;
  };
}

function failed(_ctx: C, title: string, outcome: Answer<unknown>): Page | undefined {
  return outcome.kind === 'ok' ? undefined : { title, body: <p class="flash error">{outcome.message}</p> };
}

/** GET /tenders/index: the caller's tenders and those open to it, and the form of a new one. */
export function tendersPage(
  ctx: C,
  outcome: Answer<{ tenders: TenderRowView[] }>,
  template: string,
  partners: ReadonlyArray<{ id: number; name: string }>,
): Page {
  const t = ctx.t;
  const title = t('tenders.title');
  const bad = failed(ctx, title, outcome);
  if (bad || outcome.kind !== 'ok') return bad!;
  const csrf = ctx.reply.generateCsrf();
  return {
    title,
    body: (
      <div class="tenders">
        <h1>{title}</h1>
        <p>
          <a href="/contracts/index">{t('contracts.title')}</a>
        </p>
        {outcome.data.tenders.length === 0 ? (
          <p class="muted">{t('tenders.none')}</p>
        ) : (
          <div class="table-wrap cards">
            <table class="grid" data-testid="tenders">
              <thead>
                <tr>
                  <th>{t('tenders.name')}</th>
                  <th>{t('tenders.owner')}</th>
                  <th>{t('tenders.status')}</th>
                  <th>{t('tenders.deadline')}</th>
                  <th class="num">{t('tenders.lanes')}</th>
                </tr>
              </thead>
              <tbody>
                {outcome.data.tenders.map((r) => (
                  <tr>
                    <td>
                      <a href={`/tenders/view/${r.id}`}>{r.name}</a>
                    </td>
                    <td>{r.company.name}</td>
                    <td>{t(`tenders.status.${r.status as 'open'}`)}</td>
                    <td>{r.deadline}</td>
                    <td class="num">{r.lanes_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <form method="post" action="/tenders/add" class="panel stack" data-testid="tender-form" data-tender-csv>
          <CsrfField token={csrf} />
          <h2>{t('tenders.new')}</h2>
          <div class="field">
            <label for="tender-name">{t('tenders.name')}</label>
            <input id="tender-name" name="name" required maxLength={200} />
          </div>
          <div class="form-grid">
            <div class="field">
              <label for="tender-from">{t('tenders.valid_from')}</label>
              <input id="tender-from" name="valid_from" type="date" required />
            </div>
            <div class="field">
              <label for="tender-to">{t('tenders.valid_to')}</label>
              <input id="tender-to" name="valid_to" type="date" required />
            </div>
            <div class="field">
              <label for="tender-deadline">{t('tenders.deadline')}</label>
              <input
                id="tender-deadline"
                name="deadline"
                placeholder={ctx.language === 'deu' ? '31.01.2031 12:00' : '2031-01-31 12:00'}
                required
              />
            </div>
            <div class="field">
              <label for="tender-currency">{t('tenders.currency')}</label>
              <input id="tender-currency" name="currency" value="EUR" maxLength={3} />
            </div>
          </div>
          <div class="field">
            <label for="tender-invited">{t('tenders.invited')}</label>
            <CompanyPicker id="tender-invited" name="invited_names" partners={partners} value="" />
          </div>
          <div class="field">
            <label for="tender-file">{t('tenders.csv_file')}</label>
            <input id="tender-file" type="file" accept=".csv,text/csv" data-csv-file aria-describedby="tender-file-state" />
            <span
              class="hint"
              id="tender-file-state"
              data-csv-state
              aria-live="polite"
              data-reading={t('tenders.csv_reading')}
              data-read={t('tenders.csv_read')}
            ></span>
            <a
              download="lanes-template.csv"
              href={`data:text/csv;charset=utf-8,${encodeURIComponent(template)}`}
              data-testid="csv-template"
            >
              {t('tenders.csv_template')}
            </a>
          </div>
          <div class="field">
            <label for="tender-lanes">{t('tenders.lanes_text')}</label>
            <textarea id="tender-lanes" name="lanes_csv" rows={6} data-csv-text placeholder={template} />
          </div>
          <button type="submit">{t('tenders.create')}</button>
        </form>
      </div>
    ),
  };
}

function laneFacts(_ctx: C, l: TenderView['lanes'][number]) {
  return [l.note, l.body, l.weight === null ? null : `${l.weight} kg`].filter(Boolean).join(' · ');
}

/** GET /tenders/view/{id}: the tender, its lanes, and the bidding form (a bidder, while open) or the owner's publish button. */
export function tenderPage(ctx: C, outcome: Answer<{ tender: TenderView }>, _evaluation: Evaluation | undefined): Page {
  const t = ctx.t;
  const bad = failed(ctx, t('tenders.title'), outcome);
  if (bad || outcome.kind !== 'ok') return bad!;
  const tender = outcome.data.tender;
  const mine = tender.company.id === ctx.caller.companyId;
  const money = moneyOf(ctx.language);
  const csrf = ctx.reply.generateCsrf();
  const bidding = !mine && tender.status === 'open';
  return {
    title: tender.name,
    body: (
      <div class="tender">
        <h1>{tender.name}</h1>
        <Facts
          items={[
            [t('tenders.owner'), tender.company.name],
            [t('tenders.status'), <strong data-testid="tender-status">{t(`tenders.status.${tender.status}`)}</strong>],
            [t('tenders.deadline'), tender.deadline],
            [t('contracts.valid'), `${tender.valid_from} – ${tender.valid_to}`],
          ]}
        />
        {mine && tender.status === 'draft' && (
          <PostButton action={`/tenders/publish/${tender.id}`} label={t('tenders.publish')} csrf={csrf} />
        )}
        {mine && tender.status === 'open' && <p class="hint">{t('tenders.bids_hidden')}</p>}
        {!mine && <p class="hint">{t('tenders.sealed')}</p>}
        <form method="post" action={`/tenders/bid/${tender.id}`} data-testid="bid-form">
          {bidding && <CsrfField token={csrf} />}
          <div class="table-wrap cards">
            <table class="grid">
              <thead>
                <tr>
                  <th class="num">#</th>
                  <th>{t('tenders.from')}</th>
                  <th>{t('tenders.to')}</th>
                  <th class="num">{t('tenders.loads')}</th>
                  <th>{t('tenders.note')}</th>
                  {!mine && <th>{t('tenders.your_bid')}</th>}
                </tr>
              </thead>
              <tbody>
                {tender.lanes.map((l, i) => (
                  <tr data-testid={`lane-${l.position}`}>
                    <td class="num">{l.position}</td>
                    <td>{l.from}</td>
                    <td>{l.to}</td>
                    <td class="num">{l.loads}</td>
                    <td>{laneFacts(ctx, l)}</td>
                    {!mine && (
                      <td>
                        {bidding ? (
                          <span class="stack">
                            <input type="hidden" name={`bids[${i}][lane]`} value={String(l.id)} />
                            <label>
                              {t('tenders.price')}{' '}
                              <input
                                name={`bids[${i}][price]`}
                                inputMode="decimal"
                                size={8}
                                value={l.bid ? formatNumber(l.bid.price, ctx.language, 2, 2) : ''}
                              />
                            </label>
                            <label>
                              {t('tenders.capacity')}{' '}
                              <input
                                name={`bids[${i}][capacity]`}
                                type="number"
                                min={1}
                                max={LOADS_MAX}
                                size={4}
                                value={l.bid ? String(l.bid.capacity) : String(l.loads)}
                              />
                            </label>
                          </span>
                        ) : l.bid ? (
                          `${money(l.bid.price, tender.currency)} · ${l.bid.capacity}`
                        ) : (
                          '–'
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {bidding && <button type="submit">{t('tenders.bid')}</button>}
        </form>
      </div>
    ),
  };
}

/** Bids shown per lane on the evaluation page (the cheapest; `all=1` shows every one, the export holds every one). */
export const SHOWN_BIDS = 5;

export interface Evaluation {
  refs: Map<number, CompanyRef>;
  ratings: Map<number, { count: number; average: number | null }>;
  markets: Map<string, number | null>;
  /** After the award: the primary contracts' total a month (server-side; the page's script sums only while ranks are chosen). */
  awarded?: number;
}

/** The evaluation as CSV (semicolons; one line per bid): lane, places, loads, bidder, price, capacity, rating, verified, market price. */
export function evaluationText(tender: TenderView, ev: Evaluation): string {
  const q = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[;"\n\r]/.test(s) || /^[=+\-@]/.test(s) ? `"${s.replace(/^([=+\-@])/, "'$1").replace(/"/g, '""')}"` : s;
  };
  const lines = ['lane;from;to;loads;company;company_name;price;currency;capacity;rating;verified;market_price'];
  for (const l of tender.lanes) {
    const market = ev.markets.get(`${l.from}>${l.to}`) ?? '';
    for (const b of l.bids ?? [])
      lines.push(
        [
          l.position,
          l.from,
          l.to,
          l.loads,
          b.company,
          b.company_name,
          b.price.toFixed(2),
          tender.currency,
          b.capacity,
          ev.ratings.get(b.company)?.average ?? '',
          ev.refs.get(b.company)?.verified ? 1 : 0,
          market,
        ]
          .map(q)
          .join(';'),
      );
  }
  return `${lines.join('\n')}\n`;
}

/** Text as Preact writes it into a page, in text and in attribute values: `"`, `&` and `<` escaped. */
const ESCAPED = /["&<]/;
const ENTITY: Record<string, string> = { '"': '&quot;', '&': '&amp;', '<': '&lt;' };
const esc = (value: string | number) => {
  const s = String(value);
  return ESCAPED.test(s) ? s.replace(/["&<]/g, (c) => ENTITY[c]!) : s;
};

/**
 * The award form's content, written as text: the CSRF field while the award is open, the lanes
 * (laneSections), the total a month of the ranks 1 and the award button.
 */
function awardForm(ctx: C, tender: TenderView, ev: Evaluation, all: boolean, open: boolean, csrf: string): string {
  const t = ctx.t;
  return `${open ? `<input type="hidden" name="_csrf" value="${esc(csrf)}"/>` : ''}${laneSections(ctx, tender, ev, all, open)}<p>${esc(
    t('tenders.total'),
  )}: <strong data-testid="award-total">${esc(moneyOf(ctx.language)(ev.awarded ?? 0, tender.currency))}</strong></p>${
    open ? `<button type="submit">${esc(t('tenders.award'))}</button>` : ''
  }`;
}

/**
 * The evaluation's lanes, written as text: a lane's panel, its market price, its bids by price (each
 * with capacity, rating, verified mark and, while the award is open, a rank to choose), the link to
 * the rest. A thousand lanes of five bids are 60,000 elements, which Preact takes ten times longer
 * to write than this (docs/choices.md, "Lane tenders": the evaluation's speed); the markup is the
 * same as Preact wrote (compared byte for byte when this was written), every value escaped by `esc`.
 */
function laneSections(ctx: C, tender: TenderView, ev: Evaluation, all: boolean, open: boolean): string {
  const money = moneyOf(ctx.language);
  const t = ctx.t;
  const words = {
    lane: esc(t('tenders.lane')),
    oneLoad: esc(t('tenders.lane_loads.one')),
    market: esc(t('tenders.market_price')),
    none: esc(t('tenders.no_market_price')),
    noBids: esc(t('tenders.no_bids')),
    verified: esc(t('tenders.verified')),
    rank: t('tenders.rank'),
    head: `<thead><tr><th>${esc(t('tenders.carrier'))}</th><th class="num">${esc(t('tenders.price'))}</th><th class="num">${esc(
      t('tenders.capacity'),
    )}</th><th>${esc(t('tenders.rating'))}</th>${open ? `<th>${esc(t('tenders.rank'))}</th>` : ''}</tr></thead>`,
  };
  // What a bid's row says of its bidder, written once per bidder (50 bidders, 5,000 rows).
  const bidders = new Map<number, { cell: string; rating: string; label: string }>();
  const bidder = (b: { company: number; company_name: string }) => {
    let x = bidders.get(b.company);
    if (!x) {
      const rating = ev.ratings.get(b.company);
      x = {
        cell: `<tr><td>${esc(b.company_name)}${ev.refs.get(b.company)?.verified ? `<span class="badge"> ✓ ${words.verified}</span>` : ''}</td>`,
        rating: `<td>${rating?.average === null || rating === undefined ? '–' : `${rating.average} (${rating.count})`}</td>`,
        label: esc(`${words.rank} ${b.company_name}`),
      };
      bidders.set(b.company, x);
    }
    return x;
  };
  const out: string[] = [];
  let k = 0;
  for (const l of tender.lanes) {
    const bids = l.bids ?? [];
    const count = l.bids_count ?? bids.length;
    const market = ev.markets.get(`${l.from}>${l.to}`);
    out.push(
      `<section class="panel" id="lane-${l.position}" data-testid="evaluate-lane-${l.position}"><h2>${words.lane} ${l.position}: ${esc(
        l.from,
      )} → ${esc(l.to)} · ${l.loads === 1 ? words.oneLoad : esc(t('tenders.lane_loads', { count: formatNumber(l.loads, ctx.language) }))}</h2><p class="hint">${words.market}: ${
        market === null || market === undefined ? words.none : esc(money(market, tender.currency))
      }</p>`,
    );
    if (count === 0) out.push(`<p class="muted">${words.noBids}</p>`);
    else {
      out.push(`<div class="table-wrap cards"><table class="grid">${words.head}<tbody>`);
      for (const b of all ? bids : bids.slice(0, SHOWN_BIDS)) {
        const i = k++;
        const x = bidder(b);
        out.push(
          `${x.cell}<td class="num">${esc(money(b.price, tender.currency))}</td><td class="num">${b.capacity}</td>${x.rating}`,
          open
            ? `<td><input type="hidden" name="awards[${i}][lane]" value="${l.id}"/><input type="hidden" name="awards[${i}][company]" value="${
                b.company
              }"/><input name="awards[${i}][rank]" type="number" min="1" max="${RANK_MAX}" size="2" aria-label="${
                x.label
              }" data-price="${b.price}" data-loads="${l.loads}"/></td></tr>`
            : '</tr>',
        );
      }
      out.push('</tbody></table></div>');
    }
    if (!all && count > SHOWN_BIDS)
      out.push(
        `<p class="hint"><a href="/tenders/view/${tender.id}?all=1#lane-${l.position}">${esc(
          t('tenders.more_bids', { count: count - SHOWN_BIDS }),
        )}</a></p>`,
      );
    out.push('</section>');
  }
  return out.join('');
}

/**
 * The owner's evaluation (from the deadline on): per lane the bids sorted by price, each bidder's
 * capacity, rating and verified mark, the lane's market price, a rank to award; the total a month
 * of the ranks 1 chosen (the page's script adds it up as ranks change; the server's figure is
 * that of the award made), and the export as CSV.
 */
export function evaluationPage(ctx: C, tender: TenderView, ev: Evaluation, all = false): Page {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  const open = tender.status === 'closed';
  return {
    title: `${t('tenders.evaluation')}: ${tender.name}`,
    body: (
      <div class="tender-evaluation">
        <h1>
          {t('tenders.evaluation')}: {tender.name}
        </h1>
        <Facts
          items={[
            [t('tenders.status'), <strong data-testid="tender-status">{t(`tenders.status.${tender.status}`)}</strong>],
            [t('tenders.deadline'), tender.deadline],
            [t('contracts.valid'), `${tender.valid_from} – ${tender.valid_to}`],
          ]}
        />
        <p>
          <a href={`/tenders/export/${tender.id}`} download data-testid="evaluation-csv">
            {t('tenders.export')}
          </a>
        </p>
        <form
          method="post"
          action={`/tenders/award/${tender.id}`}
          data-testid="award-form"
          data-award-total={open ? '' : undefined}
          data-currency={tender.currency}
          data-lang={ctx.language}
          dangerouslySetInnerHTML={{ __html: awardForm(ctx, tender, ev, all, open, csrf) }}
        />
      </div>
    ),
  };
}

/** GET /contracts/index: the company's contracts as shipper and as carrier. */
export function contractsPage(ctx: C, outcome: Answer<{ contracts: ContractView[] }>): Page {
  const money = moneyOf(ctx.language);
  const t = ctx.t;
  const title = t('contracts.title');
  const bad = failed(ctx, title, outcome);
  if (bad || outcome.kind !== 'ok') return bad!;
  const list = outcome.data.contracts;
  return {
    title,
    body: (
      <div class="contracts">
        <h1>{title}</h1>
        <p>
          <a href="/tenders/index">{t('tenders.title')}</a>
        </p>
        {list.length === 0 ? (
          <p class="muted">{t('contracts.none')}</p>
        ) : (
          <div class="table-wrap cards">
            <table class="grid" data-testid="contracts">
              <thead>
                <tr>
                  <th>{t('tenders.from')}</th>
                  <th>{t('tenders.to')}</th>
                  <th>{t('contracts.shipper')}</th>
                  <th>{t('contracts.carrier')}</th>
                  <th class="num">{t('tenders.rank')}</th>
                  <th class="num">{t('tenders.price')}</th>
                  <th>{t('contracts.valid')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((c) => (
                  <tr>
                    <td>{c.from}</td>
                    <td>{c.to}</td>
                    <td>{c.shipper.name}</td>
                    <td>{c.carrier.name}</td>
                    <td class="num">{c.rank}</td>
                    <td class="num">{money(c.price, c.currency)}</td>
                    <td>
                      {c.valid_from} – {c.valid_to}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    ),
  };
}
