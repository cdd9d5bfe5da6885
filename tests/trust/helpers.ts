import { awardedFreight } from '../support/fixtures.ts';
import type { Actor, TestApp } from '../support/harness.ts';

/** A freight of `shipper` taken by `carrier` through the API (bid, both confirmations); answers its id. */
export const takenFreight = async (app: TestApp, shipper: Actor, carrier: Actor, json: Record<string, unknown> = {}): Promise<number> =>
  (await awardedFreight(app, shipper, carrier, json)).id;

/** A freight of `shipper` carried and delivered by `carrier` (status closed). */
export { deliveredFreight } from '../support/fixtures.ts';

export const profileOf = async (app: TestApp, who: Actor, id: number) => app.get(`/companies/view/${id}.json`, { token: who.token });
