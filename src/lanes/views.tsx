import { problemsFromWarnings } from '../freights-http/index.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { formatNumber, numberFormatFor } from '../kernel/locale.ts';
import type { Answer, Warning } from '../kernel/outcome.ts';
import { DataTable, Field } from '../kernel/ui.tsx';
import { ROAD_FACTOR } from '../places/index.ts';
import { LaneChart } from './chart.tsx';
import {
  DEFAULT_CURRENCY,
  DEFAULT_MONTHS,
  laneText,
  MAX_MONTHS,
  MIN_AWARDS,
  MIN_MONTHS,
  MIN_OWNERS,
  COALITION_MAX,
  OTHERS_MIN_AWARDS,
  type LaneQuery,
} from './lane.ts';
import type { LanePricesData } from './schema.ts';
import type { LaneMonth } from './store.ts';

/** The lane prices' page (/market/prices): the lane inputs, the chart and its values as a table. */

const TAG: Record<string, string> = { eng: 'en-GB', deu: 'de-DE' };

/** A price in whole units, in the reader's language: `1.180 €` (German), `€1,180` (English). */
export function wholeMoney(value: number, currency: string, language: string): string {
  try {
    return numberFormatFor(language, { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(value);
  } catch {
    return `${formatNumber(value, language, 0)} ${currency}`;
  }
}

const centsMoney = (value: number, currency: string, language: string) => {
  try {
    return numberFormatFor(language, { style: 'currency', currency, minimumFractionDigits: 2 }).format(value);
  } catch {
    return `${formatNumber(value, language, 2, 2)} ${currency}`;
  }
};

/** `Mar 2031` / `März 2031` in the table; `Mar 31` / `März 31` under the chart's narrow slots. */
const monthName = (month: string, language: string, year: 'numeric' | '2-digit' = 'numeric') =>
  new Intl.DateTimeFormat(TAG[language] ?? 'en-GB', { month: 'short', year, timeZone: 'UTC' }).format(new Date(`${month}-01T12:00:00Z`));

/** A warning of the request in the user's words (the JSON answer keeps the API's English reasons). */
function warningText(w: Warning, t: Ctx['t']): string {
  const area = /^prices are kept per postal area: (\S+) read as (\S+)$/.exec(w.reason);
  if (area) return t('lp.warn.area', { pattern: area[1]!, area: area[2]! });
  if (w.field === 'months') return t('lp.warn.months', { min: MIN_MONTHS, max: MAX_MONTHS, months: DEFAULT_MONTHS });
  if (w.field === 'currency') return t('lp.warn.currency', { currency: DEFAULT_CURRENCY });
  const label = w.field === 'from' ? t('lp.field.from') : w.field === 'to' ? t('lp.field.to') : w.field;
  return `${label}: ${problemsFromWarnings([w], t)[w.field] ?? w.reason}`;
}

export function pricesPage(ctx: Ctx, outcome: Answer<LanePricesData>, query: LaneQuery | undefined, warnings: Warning[]): Page {
  const t = ctx.t;
  const lang = ctx.language;
  const p = ctx.params;
  const typed = (name: string, fallback: string) => (typeof p[name] === 'string' ? (p[name] as string) : fallback);
  const from = query ? laneText(query.from) : typed('from', '');
  const to = query ? laneText(query.to) : typed('to', '');
  const asked = ['from', 'to'].some((k) => typeof p[k] === 'string' && (p[k] as string).trim() !== '');
  const data = outcome.kind === 'ok' ? outcome.data : undefined;
  const currency = data?.lane.currency ?? query?.currency ?? DEFAULT_CURRENCY;
  const money = (n: number) => wholeMoney(n, currency, lang);
  // A month without awards has no figures to hide: a dash; with awards below the rule, the reason.
  const none = (m: LaneMonth) => (m.count === 0 ? '–' : <span class="muted">{t('lp.hidden')}</span>);
  const columns = [
    { label: t('lp.col.month'), cell: (m: LaneMonth) => monthName(m.month, lang), lead: true },
    { label: t('lp.col.count'), cell: (m: LaneMonth) => formatNumber(m.count, lang), numeric: true, brief: true },
    // The figures rest on the released awards (whole batches), which can be fewer than the month's.
    { label: t('lp.col.released'), cell: (m: LaneMonth) => (m.released ? formatNumber(m.released, lang) : '–'), numeric: true },
    { label: t('lp.col.median'), cell: (m: LaneMonth) => (m.median === null ? none(m) : money(m.median)), numeric: true },
    { label: t('lp.col.p25'), cell: (m: LaneMonth) => (m.p25 === null ? none(m) : money(m.p25)), numeric: true },
    { label: t('lp.col.p75'), cell: (m: LaneMonth) => (m.p75 === null ? none(m) : money(m.p75)), numeric: true },
    // Per road km on the page (docs/choices.md, "Road distances"): the JSON's median per great-circle
    // km ÷ ROAD_FACTOR, which is the median of price ÷ (great circle × ROAD_FACTOR), an estimate.
    {
      label: t('lp.col.per_km'),
      cell: (m: LaneMonth) =>
        m.median_per_km === null ? (
          none(m)
        ) : (
          <span data-distance="estimate">
            <span aria-hidden="true">≈ </span>
            <span class="visually-hidden">{t('lp.estimated')} </span>
            {centsMoney(m.median_per_km / ROAD_FACTOR, currency, lang)}
          </span>
        ),
      numeric: true,
    },
  ];
  /** A lane's chart (when a month shows figures) and its table of every month. */
  const laneFigures = (answer: Pick<LanePricesData, 'lane' | 'months'>, testId: string, chartId: string) => {
    const title = t('lp.chart.title', { from: answer.lane.from, to: answer.lane.to, currency });
    return (
      <>
        {answer.months.some((m) => m.median !== null) ? (
          <figure class="lane-figure">
            <LaneChart
              id={chartId}
              months={answer.months}
              money={money}
              monthLabel={(month) => monthName(month, lang, '2-digit')}
              text={{
                title,
                desc: t('lp.chart.desc'),
                xAxis: t('lp.axis.month'),
                yAxis: t('lp.axis.price', { currency }),
                median: t('lp.legend.median'),
                range: t('lp.legend.range'),
              }}
            />
          </figure>
        ) : (
          <p class="muted" data-testid="lane-no-figures">
            {t('lp.no_figures')}
          </p>
        )}
        <DataTable columns={columns} rows={answer.months} empty="" testId={testId} caption={title} brief={(m) => m.count === 0} />
      </>
    );
  };
  const field = (name: string, label: string, value: string, extra: Record<string, unknown> = {}, hint?: string) => (
    <Field id={`lp-${name}`} label={label} hint={hint}>
      <input id={`lp-${name}`} name={name} value={value} aria-describedby={hint ? `lp-${name}-hint` : undefined} {...extra} />
    </Field>
  );
  return {
    title: t('lp.title'),
    body: (
      <section>
        <h1>{t('lp.title')}</h1>
        {/* The release rule is the operator's (LANE_PRICES_RELEASE): the page says which one holds. */}
        <p class="muted">
          {t(ctx.services.config.lanePricesRelease === 'strict' ? 'lp.intro.strict' : 'lp.intro', {
            awards: MIN_AWARDS,
            owners: MIN_OWNERS,
            others: OTHERS_MIN_AWARDS,
            coalition: COALITION_MAX,
          })}
        </p>
        <form method="get" action="/market/prices" class="panel stack" data-testid="lane-form">
          <div class="form-grid">
            {/* data-place="lane": public/app.js suggests countries, postal areas, airports and cities as areas (places/suggest.ts). */}
            {field(
              'from',
              t('lp.field.from'),
              from,
              { required: true, autocomplete: 'off', 'data-place': 'lane' },
              t('lp.field.places.hint'),
            )}
            {field('to', t('lp.field.to'), to, { required: true, autocomplete: 'off', 'data-place': 'lane' }, t('lp.field.places.hint'))}
            {field('months', t('lp.field.months'), String(query?.months ?? DEFAULT_MONTHS), {
              type: 'number',
              min: MIN_MONTHS,
              max: MAX_MONTHS,
              inputMode: 'numeric',
            })}
            {field('currency', t('lp.field.currency'), currency, { maxLength: 3, size: 4, autocapitalize: 'characters' })}
          </div>
          <div>
            <button type="submit">{t('lp.show')}</button>
          </div>
        </form>
        {warnings.length > 0 && asked && (
          <ul class="flash warn" data-testid="lane-warnings">
            {warnings.map((w) => (
              <li>{warningText(w, t)}</li>
            ))}
          </ul>
        )}
        {outcome.kind === 'error' &&
          (asked ? (
            <p class="flash error" role="alert">
              {outcome.message}
            </p>
          ) : (
            <p class="muted">{t('lp.enter_lane')}</p>
          ))}
        {data && (
          <div class="stack" data-testid="lane-prices">
            <h2>
              {data.lane.from} → {data.lane.to}
            </h2>
            {data.needed !== undefined && (
              <p data-testid="lane-needed">
                {t(data.needed === 1 ? 'lp.needed.one' : 'lp.needed', {
                  count: formatNumber(data.months.at(-1)?.count ?? 0, lang),
                  needed: formatNumber(data.needed, lang),
                  owners: MIN_OWNERS,
                })}
              </p>
            )}
            {laneFigures(data, 'lane-months', 'lane-chart')}
            {data.wider && (
              <section class="stack" data-testid="lane-wider" aria-labelledby="lane-wider-title">
                <h2 id="lane-wider-title">{t('lp.wider.title', { from: data.wider.lane.from, to: data.wider.lane.to })}</h2>
                <p class="muted">{t('lp.wider.intro', { from: data.lane.from, to: data.lane.to })}</p>
                {laneFigures(data.wider, 'lane-wider-months', 'lane-wider-chart')}
              </section>
            )}
          </div>
        )}
      </section>
    ),
  };
}

/**
 * The freight form's and page's hint: "market: €1,180 median, 24 awards", linking to the lane's
 * chart; `count` the awards the median rests on (routes.tsx lastMedianOf).
 */
export function marketHint(ctx: Ctx, hint: { median: number; count: number; currency: string; from: string; to: string }) {
  const href = `/market/prices?${new URLSearchParams({ from: hint.from, to: hint.to, currency: hint.currency }).toString()}`;
  return (
    <span class="market-hint" data-testid="market-hint">
      {ctx.t('lp.hint', { price: wholeMoney(hint.median, hint.currency, ctx.language), count: formatNumber(hint.count, ctx.language) })} (
      <a href={href}>{ctx.t('lp.hint.link')}</a>)
    </span>
  );
}
