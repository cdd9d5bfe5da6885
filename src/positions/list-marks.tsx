import type { ComponentChildren } from 'preact';
import type { Caller, Ctx } from '../kernel/context.ts';
import { formatStamp } from '../kernel/locale.ts';
import { trackingStates } from './queue.ts';

/**
 * What the freight lists show of tracking (docs/reference.md#tracking), under the route of a freight
 * the caller is a party to (its owner, or the winner) once awarded: a "late" mark while the truck
 * is late and has not arrived, and the last milestone with its time. Nobody else's rows get one
 * (the freights module asks for every row of the page; this decides).
 */
export async function trackingMarks(
  ctx: Ctx<Caller>,
  rows: ReadonlyArray<{ id: number; company: number; winner: number | null }>,
): Promise<Map<number, ComponentChildren>> {
  const me = ctx.caller.companyId;
  const parties = rows.filter((r) => r.winner !== null && (r.company === me || r.winner === me)).map((r) => r.id);
  const marks = new Map<number, ComponentChildren>();
  const t = ctx.t;
  for (const s of await trackingStates(ctx.db, parties)) {
    const last = s.milestones.reduce<(typeof s.milestones)[number] | undefined>((a, m) => (!a || m.at >= a.at ? m : a), undefined);
    if (!s.late && !last) continue;
    marks.set(
      s.freightId,
      <div class="tracking-mark" data-testid="tracking-mark">
        {s.late && (
          <span class="badge expired nowrap" title={t('tracking.late')} data-testid="tracking-mark-late">
            {t('tracking.list.late')}
          </span>
        )}
        {s.late && last && ' '}
        {last && (
          // The words may break on a phone (German ones are long), the time stays whole.
          <span class="muted" data-testid="tracking-mark-milestone">
            {t(`tracking.milestone.${last.type}`)} <span class="nowrap">{formatStamp(ctx.clock.format(last.at), ctx.language)}</span>
          </span>
        )}
      </div>,
    );
  }
  return marks;
}
