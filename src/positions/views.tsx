import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import { isOneOf } from '../kernel/params.ts';
import { DataTable, Facts } from '../kernel/ui.tsx';
import type { TrackedFreight } from './tracked.ts';
import { TrackingMap } from './map.tsx';
import { MILESTONE_TYPES } from './tables.ts';

/** What the owner and the winner read of a freight's tracking (GET /freights/positions/{id}.json, `data`). */
export interface TrackingData {
  positions: Array<{ latitude: number; longitude: number; at: string | null; speed: number | null; source: string }>;
  eta: { at: string | null; km_left: number } | null;
  milestones: Array<{ type: (typeof MILESTONE_TYPES)[number]; at: string | null }>;
  late: boolean;
  reads?: Array<{ user: { id: number | null; name: string }; at: string | null }>;
}

/**
 * Tracking's pages (docs/reference.md#tracking): the part of the freight page (and its own page) that shows
 * where the load is, to its two parties, and the driver's page behind its link. Both work without
 * a script; public/app.js refreshes the part from the live board and drives the phone's page.
 */

export interface SectionExtras {
  role: 'owner' | 'winner';
  /** the winner's: its driver links still open */
  links?: { count: number; expires: string | null };
}

export function TrackingSection({
  ctx,
  freight,
  data,
  extras,
}: {
  ctx: Ctx<Caller>;
  freight: TrackedFreight;
  data: TrackingData;
  extras: SectionExtras;
}) {
  const t = ctx.t;
  const last = data.positions[data.positions.length - 1];
  const winner = extras.role === 'winner';
  const csrf = winner && freight.underway ? ctx.reply.generateCsrf() : '';
  return (
    <section class="panel tracking" id="tracking" aria-labelledby="tracking-title" data-testid="tracking">
      <h2 id="tracking-title">{t('tracking.title')}</h2>
      <div data-live-part="tracking" data-tracking-underway={freight.underway ? '' : undefined}>
        <TrackingMap
          from={freight.from}
          to={freight.to}
          track={data.positions}
          labels={{ map: t('tracking.map'), from: t('tracking.map.from'), to: t('tracking.map.to'), truck: t('tracking.map.truck') }}
        />
        {data.late && (
          <p class="flash error" role="alert" data-testid="tracking-late">
            {t('tracking.late')}
          </p>
        )}
        <Facts
          items={[
            [
              t('tracking.eta'),
              data.eta ? (
                <span data-testid="tracking-eta">
                  {data.eta.at} ·{' '}
                  {t('tracking.km_left', { km: data.eta.km_left.toLocaleString(ctx.language === 'deu' ? 'de-DE' : 'en-GB') })}
                </span>
              ) : (
                <span data-testid="tracking-eta">{t('tracking.eta.none')}</span>
              ),
            ],
            [
              t('tracking.last'),
              last ? (
                <span data-testid="tracking-last">
                  {last.at} · {last.latitude.toFixed(5)}, {last.longitude.toFixed(5)}
                </span>
              ) : (
                t('tracking.none')
              ),
            ],
          ]}
        />
        <h3>{t('tracking.milestones')}</h3>
        {data.milestones.length ? (
          <ol class="milestones" data-testid="tracking-milestones">
            {data.milestones.map((m) => (
              <li data-milestone={m.type}>
                {isOneOf(MILESTONE_TYPES, m.type) ? t(`tracking.milestone.${m.type}`) : m.type}: {m.at}
              </li>
            ))}
          </ol>
        ) : (
          <p>–</p>
        )}
        <p class="hint">{t('tracking.method')}</p>
      </div>
      <p class="hint">{t('tracking.privacy')}</p>
      {winner && freight.underway && (
        <div class="actions">
          {extras.links && extras.links.count > 0 && (
            <p data-testid="tracking-links">
              {t('tracking.link.live', { count: extras.links.count, expires: extras.links.expires ?? '' })}
            </p>
          )}
          <form method="post" action={`/freights/tracking-link/${freight.id}`}>
            <CsrfField token={csrf} />
            <button type="submit">{t('tracking.link.create')}</button>
          </form>
          {extras.links && extras.links.count > 0 && (
            <form method="post" action={`/freights/tracking-link-revoke/${freight.id}`}>
              <CsrfField token={csrf} />
              <button type="submit" class="secondary">
                {t('tracking.link.revoke')}
              </button>
            </form>
          )}
        </div>
      )}
      {winner && data.reads && (
        <>
          <h3>{t('tracking.reads')}</h3>
          <DataTable
            rows={data.reads}
            testId="tracking-reads"
            empty={t('tracking.reads.none')}
            columns={[
              { label: t('tracking.reads.who'), cell: (r) => r.user.name },
              { label: t('tracking.reads.when'), cell: (r) => r.at ?? '' },
            ]}
          />
        </>
      )}
    </section>
  );
}

/** GET /freights/positions/{id}: the tracking part alone, for the two parties. */
export function trackingPage(ctx: Ctx<Caller>, freight: TrackedFreight, data: TrackingData | null, extras: SectionExtras): Page {
  const title = `${ctx.t('tracking.title')} · ${freight.id}`;
  return {
    title,
    body: (
      <div data-live-freight={freight.id}>
        <p>
          <a href={`/freights/view/${freight.id}`}>← {freight.id}</a>
        </p>
        {data && <TrackingSection ctx={ctx} freight={freight} data={data} extras={extras} />}
      </div>
    ),
  };
}

/** The driver's page behind its link: what is shared and with whom, and the buttons; public/app.js shares the position. */
export function driverPage(ctx: Ctx<Caller | null>, opened: { freight: number; expires: Date } | null): Page {
  const t = ctx.t;
  if (!opened) return { title: t('driver.title'), body: <p data-testid="driver-ended">{t('driver.ended')}</p> };
  const texts = {
    idle: t('driver.state.idle'),
    asking: t('driver.state.asking'),
    sharing: t('driver.state.sharing', { time: '{time}' }),
    queued: t('driver.state.queued', { count: '{count}' }),
    denied: t('driver.state.denied'),
    ended: t('driver.state.ended'),
    unsupported: t('driver.state.unsupported'),
  };
  return {
    title: t('driver.title'),
    body: (
      <section class="driver" data-driver={`${ctx.req.url.split('?')[0]}.json`} data-driver-texts={JSON.stringify(texts)}>
        <h1>{t('driver.title')}</h1>
        <p class="lead" data-testid="driver-what">
          {t('driver.what')}
        </p>
        <p>{t('driver.freight', { id: opened.freight })}</p>
        <p>{t('driver.until', { expires: ctx.clock.formatShort(opened.expires) ?? '' })}</p>
        <p class="hint">{t('driver.keep_open')}</p>
        <p class="driver-state" role="status" aria-live="polite" data-testid="driver-state">
          {t('driver.state.idle')}
        </p>
        <div class="actions">
          <button type="button" data-driver-start>
            {t('driver.start')}
          </button>
          <button type="button" class="secondary" data-driver-stop hidden>
            {t('driver.stop')}
          </button>
        </div>
      </section>
    ),
  };
}
