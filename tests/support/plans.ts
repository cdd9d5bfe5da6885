import { CompiledQuery, type Kysely } from 'kysely';

/** A node of PostgreSQL's plan in `explain (format json)`. */
type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/**
 * Runs a statement under `explain (analyze, format json)` and counts the rows its plan read of
 * `table`: each scan's rows kept or filtered out, over all its loops. What a test of a statement's
 * cost asserts (how much it reads, not how long it takes); `plan` is the plan itself, for the message.
 */
export async function rowsReadOf(
  db: Kysely<any>,
  compiled: { sql: string; parameters: readonly unknown[] },
  table: string,
): Promise<{ read: number; plan: unknown }> {
  const explained = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (analyze, format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const raw = explained.rows[0]!['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
  let read = 0;
  const walk = (node: PlanNode) => {
    if (node['Relation Name'] === table)
      read += (Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0)) * Number(node['Actual Loops']);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan[0]!.Plan);
  return { read, plan };
}
