import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  code,
  cycles,
  fileImports,
  foreignTableTypeImports,
  foreignTableUses,
  migrationTables,
  moduleImports,
  moduleState,
  sourceFiles,
  tableOwners,
} from '../support/structure.ts';
import { anchorsOf, citations, commentRanges, outsideCitations, rewriteComment, SECTION_ANCHORS } from '../../scripts/cite-reference.mjs';

/**
 * The module structure of docs/architecture.md ("Modules, tables and which way imports point"),
 * checked on the source: modules import each other without a loop, each table is named only by
 * the module that owns it (its tables.ts), and every table has an owner.
 */

/**
 * The one exception, and why: db/schema.ts joins every module's table types into the one
 * `DB` interface Kysely checks queries against (one line per module), so it imports each
 * module's tables.ts while every module imports `DB` from it. Type-only, no code at run time;
 * without it a join across two modules' tables could not be typed. Its imports are left out of
 * the import graph and of the table-type check; nothing else is.
 */
const SCHEMA_AGGREGATE = 'db/schema.ts';

const files = sourceFiles();
const checked = files.filter((f) => f.file !== SCHEMA_AGGREGATE);

/**
 * List ids written into texts (descriptions, messages): a run of two or more list ids (`8, 7, 6`,
 * `17/18`, `200–219`), or one named as a list or filter (`default 8`, `list 10`, `filter 8`).
 * Template literals count only outside their `${…}` parts: an id read from the registry is no copy.
 */
function listIdsInStrings(text: string, isId: (n: string) => boolean): string[] {
  const strings = [...text.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) =>
    m[0].replace(/\$\{[^}]*\}/g, ' '),
  );
  const found: string[] = [];
  for (const s of strings) {
    for (const m of s.matchAll(/\b\d+(?:\s*(?:,|\/|–|-)\s*\d+)+\b/g)) {
      const numbers = m[0].split(/\s*(?:,|\/|–|-)\s*/);
      if (numbers.every(isId)) found.push(numbers.join(','));
    }
    for (const m of s.matchAll(/\b(?:default|list|lists|filter)\s+(\d+)\b/gi)) if (isId(m[1]!)) found.push(m[1]!);
  }
  return found;
}

describe('module structure', () => {
  test('no import cycle between modules (code imports)', () => {
    assert.deepEqual(cycles(moduleImports(checked, 'values')), []);
  });

  test('no import cycle between modules, counting type-only imports too', () => {
    assert.deepEqual(cycles(moduleImports(checked, 'all')), []);
  });

  test('no import cycle between files, inside a module too (code imports)', () => {
    // A loop of files is evaluated in an order that depends on who imports first; a value read
    // at load time then reads undefined. Type-only imports may loop (they vanish at run time).
    assert.deepEqual(cycles(fileImports(checked, 'values')), []);
  });

  test('no import circle of files at all, type imports included (inside a module too)', () => {
    // A file that needs a type of a file that needs it is one file's design split in two: the
    // type goes to the lower one, or the higher one passes a function in (lifecycle.ts createFreight
    // takes the own order's `awarded` rather than importing the award path).
    assert.deepEqual(cycles(fileImports(checked, 'all')), []);
  });

  test('no import circle of files that crosses modules, type imports and db/schema.ts included', () => {
    // db/schema.ts imports every tables.ts and every module imports DB from it: a loop through
    // it is only avoided when the tables.ts files import no behaviour (their statuses and row
    // types live in them). A type circle across modules is a design that cannot be read in order.
    const across = cycles(fileImports(files, 'all')).filter((group) => new Set(group.map((f) => f.split(path.sep)[0])).size > 1);
    assert.deepEqual(across, []);
  });

  test('every module another module or the composition root uses has an index.ts, but the ground', () => {
    // The ground (docs/architecture.md): kernel (docs/reference.md#the-api's conventions), db, config and cli are
    // libraries every module uses a piece of; an index.ts there would be the whole folder again.
    const GROUND = new Set(['kernel', 'db', 'config', 'cli']);
    const used = new Set<string>();
    for (const [file, edges] of fileImports(checked, 'all')) {
      const from = file.includes(path.sep) ? file.split(path.sep)[0]! : '(root)';
      for (const target of edges.keys()) if (target.split(path.sep)[0] !== from) used.add(target.split(path.sep)[0]!);
    }
    const surfaces = new Set(files.filter((f) => f.file === path.join(f.module, 'index.ts')).map((f) => f.module));
    const missing = [...used].filter((m) => !m.endsWith('.ts') && !GROUND.has(m) && !surfaces.has(m));
    assert.deepEqual(missing.sort(), []);
  });

  test('a module with an index.ts is used by other modules only through it (its public surface)', () => {
    const surfaces = new Set(files.filter((f) => f.file === path.join(f.module, 'index.ts')).map((f) => f.module));
    const wrong: string[] = [];
    for (const [file, edges] of fileImports(checked, 'all')) {
      const from = file.includes(path.sep) ? file.split(path.sep)[0]! : '(root)';
      for (const target of edges.keys()) {
        const to = target.split(path.sep)[0]!;
        if (to !== from && surfaces.has(to) && target !== path.join(to, 'index.ts')) wrong.push(`${file} imports ${target}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  test('other modules read freights through the read model: its SQL pieces come from read-model.ts and the rule files', () => {
    // docs/architecture.md, "The read model": another module's statement over freights is its own,
    // started from freights/read-model.ts with the freights' rules as SQL pieces. A statement start
    // or an SQL piece the public surface exports from any other file of freights is a statement
    // of another module growing back into freights.
    const RULE_FILES = new Set(['./read-model.ts', './in-market.ts', './policy.ts', './search.ts']);
    const index = code(files.find((f) => f.file === path.join('freights', 'index.ts'))!.text);
    const wrong: string[] = [];
    for (const m of index.matchAll(/export\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
      const names = m[1]!.split(',').map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)
            .pop()!,
      );
      for (const name of names) {
        const piece =
          /Sql$/.test(name) || /^from[A-Z]/.test(name) || /^(freights|bids)With[A-Z]/.test(name) || name === 'FREIGHTS' || name === 'BIDS';
        if (piece && !RULE_FILES.has(m[2]!)) wrong.push(`${name} from ${m[2]}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  test('one Db type: `Kysely<DB> | Transaction<DB>` is written only in db/schema.ts', () => {
    const again = files
      .filter(
        (f) => f.file !== SCHEMA_AGGREGATE && /Kysely<DB>\s*\|\s*Transaction<DB>|Transaction<DB>\s*\|\s*Kysely<DB>/.test(code(f.text)),
      )
      .map((f) => f.file);
    assert.deepEqual(again, []);
  });

  test('the freight list registry is the only place the list ids are written', () => {
    const REGISTRY = path.join('freights', 'lists', 'registry.ts');
    const registry = files.find((f) => f.file === REGISTRY)!.text;
    const block = /export const LIST = \{([\s\S]*?)\} as const;/.exec(registry)?.[1] ?? '';
    const ids = new Set([...block.matchAll(/^\s*\w+: (\d+),/gm)].map((m) => m[1]!));
    assert.ok(ids.size >= 20, `list ids read from the registry: ${[...ids].join(', ')}`);
    const isId = (n: string) => ids.has(n);
    const found: string[] = [];
    for (const f of checked) {
      if (f.file === REGISTRY) continue;
      // Message catalogues name a list's label by its key ('fv.f8': 'Open requests'): that is its text, not a use.
      const text = code(f.text).replace(/^\s*'fv\.f\d+':.*$/gm, '');
      const uses = [
        ...[...text.matchAll(/enlist\/(\d+)/g)].map((m) => m[1]!),
        ...[...text.matchAll(/\b(?:filterId|listId|filter|list)\s*[!=]==?\s*(\d+)/g)].map((m) => m[1]!),
        ...[...text.matchAll(/\bfv\.f(\d+)/g)].map((m) => m[1]!),
        ...[...text.matchAll(/\[\s*\[\s*(\d+)\s*,/g)].map((m) => m[1]!),
        // A list of numbers that are all list ids (two or more): a set of lists written out.
        ...[...text.matchAll(/\[\s*(\d+(?:\s*,\s*\d+)+)\s*\]/g)]
          .map((m) => m[1]!.split(/\s*,\s*/))
          .filter((numbers) => numbers.every(isId))
          .map((numbers) => numbers.join(',')),
        // Migrations are history and write SQL types (`numeric(10, 2)`), never a list.
        ...(f.file.startsWith(`db${path.sep}migrations`) ? [] : listIdsInStrings(text, isId)),
      ].filter((n) => n.split(',').every(isId));
      for (const use of uses) found.push(`${f.file}: ${use}`);
    }
    assert.deepEqual(found, []);
  });

  test('no module-level mutable state in request paths but the caches named here, each for a reason', () => {
    // What a request writes that another request (or process) reads belongs in the database; per
    // request, it travels as the endpoint's input (kernel/route.tsx `read`), never in a module-level
    // map keyed by the request. A `let`, a collection under a variable's name, and any constant,
    // array or object the file changes after it is built (`push`, `set`, an assignment into it)
    // count (support/structure.ts moduleState); a table built once is a constant. What is left is
    // caches that nobody else needs, each bounded and true whatever process answers.
    const ALLOWED: Record<string, string> = {
      'accounts/authenticator.ts caches': 'the 1-second token cache of each app (docs/architecture.md, Authentication cache)',
      'airports/index.ts byCode': 'the packaged airport data, indexed on first use',
      'db/lock.ts held': "the embedded database's data directories this process holds",
      'db/prepared.ts preparedOn': 'which statements each connection has prepared',
      'db/prepared.ts protocolPools': "the pg pool behind each PostgreSQL server's Kysely, for statements prepared by the wire protocol",
      'db/prepared.ts shapes': 'prepared statements of searched lists by their text, at most 100',
      'deals/pdf.ts fonts': 'the packaged fonts of the transport order, parsed on first use (docs/benchmarks.md)',
      'deals/pdf.ts layouts':
        'the word layouts of the PDFs’ two fonts, shared by 200 documents at a time (docs/choices.md, the award’s PDF)',
      'files/airport-time.ts offsets': "airports' UTC offsets by day, computed from static data",
      'files/airport-time.ts years': 'the years of day-month dates, by day, computed',
      'freights/lists/read.ts listStatements': 'the prepared list statements, one per list, order and shape',
      'freights/store.ts viewPrepared': 'the prepared view statement',
      'freights/one-step.ts refusalPrepared': 'the prepared statement of a booking refused before its transaction',
      'freights/presented.ts prepared': 'the prepared statement of the view from its stored presentation',
      'kernel/i18n.ts installed': 'the catalogues app.ts installs at start',
      'kernel/locale.ts formats':
        'the number formats by language and currency, at most 256, made once each (a page formats hundreds of values)',
      'market/sql.ts aroundCentres': 'airports and postal ranges within a radius of the last 1,000 centres: static data',
      'market/sql.ts centresCache': 'the postal codes’ centres within the last radii measured from, at most 250,000 codes: static data',
      'market/sql.ts centresHeld': 'the postal codes’ centres within the last radii measured from, at most 250,000 codes: static data',
      'places/cities.ts worker': 'the worker thread holding the city data',
      'places/cities.ts ready': 'the worker thread holding the city data',
      'places/cities.ts loaded': 'the worker thread holding the city data',
      'places/cities.ts nextId': "the worker's questions in flight",
      'places/cities.ts pending': "the worker's questions in flight",
      'places/countries.ts byCode': 'the packaged country names, indexed on first use',
      'places/geo.ts every': 'the airports as points, from static data',
      'places/geo.ts list': 'the airports as a list, from static data',
      'places/postal-centres.ts file': 'the packaged postal code centres, read on first use',
      'places/postal-centres.ts parsed': 'the packaged postal code centres, parsed per country on first use',
      'places/postal.ts formats': 'the packaged postal code formats, indexed on first use',
      'positions/map.tsx atlas': 'the packaged land and borders (world-atlas), read on first use',
      'webhooks/outbox.ts idBytes': 'random bytes for event ids, drawn 4 KB at a time; each byte serves one id only',
      'db/statistics.ts daemonOf': 'whether a database (handle) runs autovacuum, asked once',
      'freights/presented.ts formats':
        'the presentation format key of a clock (a hash of a sample freight presented in its zone), computed once',
      'market/roads.ts current':
        'the road distance router app.ts starts with ROUTING_URL: at most 200,000 routed km per place pair, a copy of the shared table road_distances',
      'market/counts.ts caches': 'list counts per database snapshot (docs/architecture.md, Counts cache)',
      'trust/store.ts profilePrepared': 'the prepared company profile statement',
    };
    const found = moduleState(checked);
    assert.deepEqual(found.filter((entry) => !Object.hasOwn(ALLOWED, entry)).sort(), [], 'module-level state without a reason');
    assert.deepEqual(
      Object.keys(ALLOWED)
        .filter((entry) => !found.includes(entry))
        .sort(),
      [],
      'reasons for state that is gone',
    );
  });

  test('every table is named only inside its owning module (query builders and SQL)', () => {
    assert.deepEqual(foreignTableUses(files, tableOwners(files)), []);
  });

  test("no module imports the table types of another module's tables.ts", () => {
    assert.deepEqual(foreignTableTypeImports(files, [SCHEMA_AGGREGATE]), []);
  });

  test('every table the migrations create has one owning module, and every owned table exists', () => {
    const owners = tableOwners(files);
    const created = migrationTables(files);
    assert.ok(created.size > 20, `tables found in the migrations: ${created.size}`);
    assert.deepEqual([...created].filter((t) => !owners.has(t)).sort(), [], 'tables without an owner');
    assert.deepEqual([...owners.keys()].filter((t) => !created.has(t)).sort(), [], 'owned tables no migration creates');
    // One owner each: a table declared in two tables.ts files would be named by both.
    const declared = files
      .filter((f) => f.file.endsWith('/tables.ts'))
      .flatMap((f) =>
        [...(/export interface \w+Tables\s*\{([^}]*)\}/.exec(f.text)?.[1] ?? '').matchAll(/^\s*(\w+):\s*\w+;/gm)].map((m) => m[1]!),
      );
    assert.deepEqual(
      declared.filter((t, i) => declared.indexOf(t) !== i),
      [],
      'tables declared twice',
    );
  });

  test('db/schema.ts joins every module that declares tables', () => {
    const schema = files.find((f) => f.file === SCHEMA_AGGREGATE)!.text;
    for (const f of files.filter((x) => x.file.endsWith('/tables.ts'))) {
      const name = /export interface (\w+Tables)\s*\{/.exec(f.text)?.[1];
      if (name) assert.match(schema, new RegExp(`\\b${name}\\b`), `${f.file}: ${name} is not part of DB`);
    }
  });

  test("docs/architecture.md's tables of imports and of table owners say what the source does", () => {
    const doc = fs.readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    /** The rows of the Markdown table whose header is `| Module | <second> |`: module -> its list. */
    const table = (second: string) => {
      const start = doc.indexOf(`| Module | ${second} |`);
      assert.ok(start >= 0, `table "${second}" in docs/architecture.md`);
      const rows = new Map<string, string[]>();
      for (const line of doc.slice(start).split('\n').slice(2)) {
        const m = /^\|\s*([\w(), -]+?)\s*\|\s*(.*?)\s*\|$/.exec(line);
        if (!m) break;
        rows.set(
          m[1]!,
          m[2]!
            .replace(/\s*\([^)]*\)/g, '')
            .split(/,\s*/)
            .filter(Boolean)
            .sort(),
        );
      }
      return rows;
    };
    const imports = moduleImports(checked, 'all');
    const computed = new Map(
      [...imports].filter(([m, edges]) => m !== '(root)' && edges.size > 0).map(([m, edges]) => [m, [...edges.keys()].sort()]),
    );
    assert.deepEqual(new Map([...table('Imports')].sort()), new Map([...computed].sort()));
    const owned = new Map<string, string[]>();
    for (const [t, m] of tableOwners(files)) owned.set(m, [...(owned.get(m) ?? []), t].sort());
    assert.deepEqual(new Map([...table('Tables')].sort()), new Map([...owned].sort()));
  });

  test('the checks see what they check: the graph and the owners are not empty', () => {
    const graph = moduleImports(checked, 'all');
    assert.ok(graph.get('freights')?.has('accounts'), 'freights imports accounts');
    assert.ok(fileImports(checked).get('freights/store.ts')?.has('freights/pieces.ts'), 'store.ts imports pieces.ts');
    assert.equal(tableOwners(files).get('bids'), 'freights');
    assert.equal(tableOwners(files).get('awb_events'), 'files');
    assert.equal(tableOwners(files).get('events'), 'webhooks');
    // State under a constant's name, in an array or in an object, changed by a request; a table filled once is none.
    const injected = [
      'const SEEN = new Set<number>();',
      'const lastIds: number[] = [];',
      'const BY_CALLER: Record<string, number> = {};',
      'let calls = 0;',
      "const TABLE = new Map([[1, 'a']]);",
      'export function remember(id: number, caller: string) {',
      '  SEEN.add(id);',
      '  lastIds.push(id);',
      '  BY_CALLER[caller] = id;',
      '  calls += 1;',
      '  return TABLE.get(id);',
      '}',
    ].join('\n');
    assert.deepEqual(moduleState([{ file: 'x/state.ts', module: 'x', text: injected }]).sort(), [
      'x/state.ts BY_CALLER',
      'x/state.ts SEEN',
      'x/state.ts calls',
      'x/state.ts lastIds',
    ]);
  });
});

/**
 * The rules the code cites are in the repository (docs/reference.md, by anchor; our choices in
 * docs/choices.md, by heading): a comment, or a string of the tests, scripts and benches, that
 * cites a document the repository does not have (the outside `api.md`, `decisions.md §N`) or an
 * anchor docs/reference.md does not have is refused. `node scripts/cite-reference.mjs` rewrites
 * the outside citations into anchors (after a merge, say). Strings of src/ and public/ are left
 * out: they may be answers (OpenAPI descriptions), which must not change by a word.
 */
describe('citations', () => {
  test('every citation names a document of the repository, and an anchor it has', () => {
    const bad = outsideCitations().map((c) => `${c.where}: ${c.cite}: ${c.problem}`);
    assert.deepEqual(bad, [], 'run `node scripts/cite-reference.mjs`, or add the section to docs/reference.md');
  });

  test('the check sees what it checks', () => {
    const reference = anchorsOf(fs.readFileSync(new URL('../../docs/reference.md', import.meta.url), 'utf8'));
    for (const anchor of Object.values(SECTION_ANCHORS)) assert.ok(reference.has(anchor), `docs/reference.md#${anchor}`);
    assert.equal(rewriteComment('(decisions.md §7; api.md, Errors)'), '(docs/reference.md#load-search; docs/reference.md#errors)');
    assert.equal(rewriteComment('decisions.md §11, §12'), 'docs/reference.md#vehicles, #trust');
    assert.equal(rewriteComment('docs/decisions.md, "Lane prices"'), 'docs/choices.md, "Lane prices"');
    const text = ["const a = 'api.md'; // decisions.md §8", 'const b = `$' + '{x}/* no comment */`; /* api.md */', ''].join('\n');
    const ranges = commentRanges('x.ts', text).map(([a, b]) => text.slice(a, b));
    assert.deepEqual(ranges, ['// decisions.md §8', '/* api.md */']);
    // The answers' own citations are seen, as strings: the OpenAPI document's, for one.
    const found = citations().filter((c) => c.where.startsWith('src/openapi/document.ts'));
    assert.ok(
      found.some((c) => !c.comment && c.problem !== null),
      'an answer citing the outside contract, as a string',
    );
    assert.ok(found.every((c) => !c.comment || c.problem === null));
  });
});
