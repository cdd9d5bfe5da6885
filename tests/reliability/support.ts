import { buildApp } from '../../src/app.ts';
import type { Endpoint } from '../../src/kernel/route.tsx';
import type { TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';
import type { FuzzTarget } from './fuzzer.ts';
import { buildWorld, type World } from './world.ts';

/**
 * The route table of a test app: buildApp's `endpoints`, read from a second build over the same
 * database (the harness does not pass it through), whose HTTP side is closed at once.
 */
export async function routeTable(app: TestApp): Promise<readonly Endpoint[]> {
  const built = await buildApp({ config: app.config, database: { ...app.database, close: async () => {} } });
  await built.http.close();
  if (!built.endpoints?.length) throw new Error('buildApp returned no endpoints');
  return built.endpoints;
}

/** A listening app with a world in it, as the fuzzer's target: real tokens, a page session, real ids. */
export async function fuzzTarget(app: TestApp): Promise<{ target: FuzzTarget; world: World }> {
  const endpoints = await routeTable(app);
  const world = await buildWorld(app, { endpoints });
  const outsider = await app.actor('Outsider');
  const session = await browserSession(app, world.shipper);
  const base = await app.listen();
  const ids = [...new Set(world.ids.map((i) => i.id))].sort((a, b) => a - b);
  return { target: { base, endpoints, tokens: [world.shipper.token, world.carrier.token, outsider.token], session, ids, words: world.words }, world };
}
