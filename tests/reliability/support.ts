import type { TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import type { FuzzTarget } from './fuzzer.ts';
import { buildWorld, type World } from './world.ts';

/** A listening app with a world in it, as the fuzzer's target: real tokens, a page session, real ids. */
export async function fuzzTarget(app: TestApp): Promise<{ target: FuzzTarget; world: World }> {
  const endpoints = app.endpoints;
  const world = await buildWorld(app, { endpoints });
  const outsider = await app.actor('Outsider');
  const session = await browserSession(app, world.shipper);
  const base = await app.listen();
  const ids = [...new Set(world.ids.map((i) => i.id))].sort((a, b) => a - b);
  return {
    target: { base, endpoints, tokens: [world.shipper.token, world.carrier.token, outsider.token], session, ids, words: world.words },
    world,
  };
}
