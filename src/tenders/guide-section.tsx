import { namesOfCompanies } from '../accounts/index.ts';
import type { FreightView } from '../freights/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField } from '../kernel/html.tsx';
import { numberFormatFor } from '../kernel/locale.ts';
import { guideOffers } from './guide.ts';

/**
 * The owner's draft page offers the routing guide when its contracts cover the freight's lane on its
 * pickup day (docs/reference.md#tenders): the carriers in order with their prices, and the button that starts
 * the waterfall with `guide` = 1. Nothing otherwise.
 */
export async function guideSection(ctx: Ctx, route: FreightView) {
  if (!ctx.caller || route.company !== ctx.caller.companyId || route.status !== 'draft') return undefined;
  const c = ctx as Ctx<Caller>;
  const etd = typeof route.etd === 'string' ? c.clock.parse(route.etd.slice(0, 16)) : null;
  const offers = await guideOffers(c.db, c.clock, {
    company_id: route.company as number,
    from_code: typeof route.from === 'string' ? route.from : null,
    from_country: typeof route.from_country === 'string' ? route.from_country : null,
    to_code: typeof route.to === 'string' ? route.to : null,
    to_country: typeof route.to_country === 'string' ? route.to_country : null,
    etd,
  });
  if (!offers.length) return undefined;
  const names = await namesOfCompanies(
    c.db,
    offers.map((o) => o.company),
  );
  const t = c.t;
  const fmt = numberFormatFor(c.language, { style: 'currency', currency: offers[0]!.currency });
  return (
    <section class="panel" data-testid="routing-guide">
      <h2>{t('tenders.guide')}</h2>
      <ol>
        {offers.map((o) => (
          <li>
            {names.get(o.company) ?? o.company} · {fmt.format(Number(o.price))}
          </li>
        ))}
      </ol>
      <form method="post" action={`/freights/waterfall/${route.id}`} class="stack">
        <CsrfField token={c.reply.generateCsrf()} />
        <input type="hidden" name="guide" value="1" />
        <label>
          {t('tenders.guide_minutes')} <input name="minutes" inputMode="numeric" value="60" required class="short" />
        </label>
        <input type="hidden" name="then" value="market" />
        <button type="submit">{t('tenders.guide_start')}</button>
      </form>
    </section>
  );
}
