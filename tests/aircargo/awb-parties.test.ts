import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { awbPartiesQuery, freightsOfAwbParties } from '../../src/files/shipment-status.ts';
import { TEST_DB } from '../support/databases.ts';
import { rowsReadOf } from '../support/plans.ts';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';

/**
 * Issue 39, item 10 (docs/choices.md, Reliability: "A status push costs what its file holds").
 * The review: a 100,000-line status push took 75 s on PostgreSQL and 139 s embedded once the
 * exchange held 100,000 freights (22 s on an empty one); one visible cause, the AWB parties'
 * statement (`freightsOfAwbParties`, asked once per batch of the push) walked
 * `freights_winner_idx`, every awarded freight of the exchange, instead of the AWB index (~51 ms
 * per 1,000 AWBs). Here an exchange of 30,000 freights, a third of them awarded and a quarter
 * carrying an AWB, and the review's batch of 1,000 AWBs: the statement must find the freights by
 * the AWB index, and answer what the rule says.
 */
describe(`the AWB parties of a status push, at scale (${TEST_DB})`, () => {
  let app: TestApp;
  let owner: Actor;
  let carrier: Actor;
  const FREIGHTS = 30_000;
  const awbOf = (n: number) => {
    const serial = 1_000_000 + n;
    return `020-${serial}${serial % 7}`;
  };

  before(async () => {
    app = await startTestApp();
    owner = await app.actor('Shipper');
    carrier = await app.actor('Carrier');
    // A third awarded (taken, closed, archived) to the carrier, every fourth carrying an AWB.
    await sql`
      insert into freights (class, type, status, from_code, from_country, to_code, to_country, weight, etd, deadline,
                            visibility, whitelist, company_id, user_id, winner_id, awb, refs, created, modified)
      select 'air', 'AHR', (array['open','taken','closed','archived','draft','expired'])[1 + i % 6],
             'FRA', 'DE', 'JFK', 'US', 100, now(), now() + interval '30 days', 0, '{}'::int[],
             ${owner.company}::int, ${owner.user}::int,
             case when i % 6 in (1, 2, 3) then ${carrier.company}::int end,
             case when i % 4 = 0 then '020-' || (1000000 + i)::text || ((1000000 + i) % 7)::text end,
             '{}'::json, now(), now()
        from generate_series(1, ${FREIGHTS}) as i`.execute(app.services.db);
    await sql`analyze freights`.execute(app.services.db);
  });
  after(() => app?.close());

  test('1,000 AWBs: found by the AWB index, never by walking the awarded freights (freights_winner_idx)', async () => {
    const awbs = Array.from({ length: 1000 }, (_, k) => awbOf(4 * (k * 7 + 1)));
    const compiled = awbPartiesQuery(app.services.db, awbs).compile();
    const explained = await app.services.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
    );
    const plan = JSON.stringify(explained.rows[0]);
    assert.ok(!plan.includes('freights_winner_idx'), `not by the winners' index: ${plan.slice(0, 2000)}`);
    assert.ok(plan.includes('freights_awb_digits_idx'), `by the AWB index: ${plan.slice(0, 2000)}`);
  });

  test("a push's batch of 125 AWBs reads the freights carrying them, not the whole AWB index", async () => {
    // 125 AWBs: a batch of the push on PostgreSQL (50 embedded). Read by the plan's own counts: the
    // freights' rows each scan of the table looked at (kept or filtered out) over all its loops.
    // Before, the planner pulled the lateral subquery up into a hash join and read every freight
    // carrying an AWB (7,500 here, 25,000 at 100,000 freights) for each batch.
    const awbs = Array.from({ length: 125 }, (_, k) => awbOf(4 * (k * 7 + 1)));
    const { read, plan } = await rowsReadOf(app.services.db, awbPartiesQuery(app.services.db, awbs).compile(), 'freights');
    assert.ok(read > 0, 'the freights were read');
    assert.ok(read <= 2 * awbs.length, `${read} freight rows read for ${awbs.length} AWBs: ${JSON.stringify(plan).slice(0, 2000)}`);
  });

  test('what it answers is the rule: the awarded freights carrying the AWBs, by their digits, first awarded first', async () => {
    const ns = Array.from({ length: 200 }, (_, k) => 4 * (k * 7 + 1));
    const spelled = ns.map((n, k) => (k % 2 ? awbOf(n).replace('-', ' ') : awbOf(n)));
    const found = await freightsOfAwbParties(app.services.db, spelled);
    const expected = await sql<{ id: number }>`
      select id from freights
       where awb = any(${ns.map(awbOf)}::text[]) and status in ('taken', 'closed', 'archived')
         and winner_id is not null and winner_id <> company_id
       order by id`.execute(app.services.db);
    assert.ok(expected.rows.length > 50, 'the sample holds awarded freights');
    assert.deepEqual(
      found.map((f) => f.id).sort((x, y) => x - y),
      expected.rows.map((r) => r.id),
    );
    for (const f of found) {
      assert.equal(f.company_id, owner.company);
      assert.equal(f.winner_id, carrier.company);
    }
    assert.deepEqual(await freightsOfAwbParties(app.services.db, []), []);
    assert.equal((await freightsOfAwbParties(app.services.db, spelled, 5)).length, 5, 'the limit');
  });
});
