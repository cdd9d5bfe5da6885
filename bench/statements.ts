import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { Database } from '../src/db/connection.ts';

/**
 * BENCH_STATEMENTS=1: the statements of one measured request with the time each took (from its
 * compilation to its rows, so driver time included) and the request's whole time, to tell the
 * database's share from Node's. The app's Kysely gets a plugin; without the variable nothing changes.
 */
export function statementTimer(database: Database) {
  const on = process.env.BENCH_STATEMENTS === '1';
  let log: Array<{ kind: string; start: number; ms: number }> | undefined;
  const starts = new WeakMap<object, { kind: string; start: number }>();
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      if (log) starts.set(args.queryId, { kind: describe(args.node), start: performance.now() });
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const s = starts.get(args.queryId);
      if (log && s) log.push({ ...s, ms: performance.now() - s.start });
      return args.result;
    },
  };
  if (on) (database as { db: unknown }).db = database.db.withPlugin(plugin);
  return {
    async around<T>(name: string, run: () => Promise<T>): Promise<T> {
      if (!on) return run();
      log = [];
      const t0 = performance.now();
      try {
        return await run();
      } finally {
        const total = performance.now() - t0;
        const entries = log;
        log = undefined;
        const db = entries.reduce((sum, e) => sum + e.ms, 0);
        console.log(
          `  ${name}: ${total.toFixed(1)} ms, ${entries.length} statements (${db.toFixed(1)} ms summed, overlapping ones counted each)`,
        );
        for (const e of entries) console.log(`    +${(e.start - t0).toFixed(1)} ms  ${e.ms.toFixed(1)} ms  ${e.kind}`);
      }
    },
  };
}

/** A statement's head for the log: its kind and first table, or a raw statement's first words. */
function describe(node: RootOperationNode): string {
  const n = node as unknown as {
    kind: string;
    from?: { froms?: Array<{ table?: { identifier?: { name?: string } } }> };
    table?: { table?: { identifier?: { name?: string } } };
    sqlFragments?: readonly string[];
  };
  if (n.kind === 'RawNode') return `raw: ${(n.sqlFragments ?? []).join('?').replace(/\s+/g, ' ').slice(0, 90)}`;
  const table = n.from?.froms?.[0]?.table?.identifier?.name ?? n.table?.table?.identifier?.name ?? '';
  return `${n.kind} ${table}`;
}
