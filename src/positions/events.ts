import type { Db } from '../db/schema.ts';
import type { TrackedFreight } from './tracked.ts';
import type { Clock } from '../kernel/time.ts';
import { announce } from '../webhooks/index.ts';
import type { MilestoneType } from './tables.ts';

/**
 * Tracking's events (docs/reference.md#events, #tracking), written to the outbox in the transaction of what they
 * announce, to the freight's two parties only: `freight.milestone` and `freight.late`. They carry
 * the freight's id, the milestone or the ETA, never a position.
 */

const partiesOf = (freight: TrackedFreight) => [...new Set([freight.owner, ...(freight.winner === null ? [] : [freight.winner])])];
/** The winner's doing (its truck's positions); the owner's own freight when there is no winner. */
const makerOf = (freight: TrackedFreight) => [freight.winner ?? freight.owner];

export async function milestoneReached(db: Db, clock: Clock, freight: TrackedFreight, milestone: { type: MilestoneType; at: Date }) {
  await announce(
    db,
    clock,
    'freight.milestone',
    partiesOf(freight).map((companyId) => ({
      companyId,
      freightId: freight.id,
      from: makerOf(freight),
      data: () => ({ route_id: freight.id, milestone: { type: milestone.type, at: clock.format(milestone.at) } }),
    })),
  );
}

export async function freightLate(db: Db, clock: Clock, freight: TrackedFreight, eta: { at: Date; kmLeft: number | null }) {
  await announce(
    db,
    clock,
    'freight.late',
    partiesOf(freight).map((companyId) => ({
      companyId,
      freightId: freight.id,
      from: makerOf(freight),
      data: () => ({
        route_id: freight.id,
        eta: { at: clock.format(eta.at), km_left: eta.kmLeft },
        window_end: clock.format(freight.windowEnd),
      }),
    })),
  );
}
