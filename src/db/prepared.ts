import { createHash } from 'node:crypto';
import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type DatabaseConnection,
} from 'kysely';
import type pg from 'pg';

/**
 * Statements of the hot paths, prepared once per database connection and executed by name:
 * `PREPARE name AS …` the first time a connection runs one, `EXECUTE name(…)` after that. No
 * query building in Node and, once PostgreSQL settles on a generic plan (after five runs on a
 * connection), no parse or plan on the server either: for the freight view, planning cost five
 * times its execution (docs/benchmarks.md). Works the same on PGlite (one connection).
 *
 * The statement is written with Kysely as usual; its arguments are the only parameters. Every
 * constant must be SQL text (a status list, `'revoked'`): a parameter there would be prepared as
 * one, and a partial index cannot be proven for a generic plan. The constructor refuses any
 * parameter that is not an argument.
 *
 * On a PostgreSQL server (`registerProtocolPool`) the statement is prepared by the wire
 * protocol instead: `pg` sends Parse once per connection and Bind/Execute with the arguments as
 * parameters after that, which costs the server a third less than parsing an EXECUTE text and the
 * process a third less than writing one (docs/benchmarks.md, "Where the view's time went at a
 * million freights").
 * PGlite's client has no named statements, so there, and inside a transaction, the statement runs
 * as SQL: EXECUTE is a utility statement, which takes no bind parameters, so the arguments travel
 * as SQL literals written by this file: integers and null as such, anything else as a quoted
 * escape string (E'…', backslashes and quotes escaped), which PostgreSQL reads with the parameter
 * type's input function exactly as it reads a bind parameter's text.
 *
 * `executeShape` prepares a statement built per request (a load search) by its text: the same
 * search shape with other values is the same statement.
 */

export type Argument = number | Date | null | string | readonly string[];

const ARGUMENT = Symbol('prepared statement argument');
type Marker = { readonly [ARGUMENT]: number };

const isMarker = (value: unknown): value is Marker => typeof value === 'object' && value !== null && ARGUMENT in value;

function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return String(value);
    if (Number.isFinite(value)) return quoted(String(value));
    throw new TypeError(`prepared statement argument ${value} is not a finite number`);
  }
  if (typeof value === 'string') return quoted(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return quoted(`{${value.map(arrayElement).join(',')}}`);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return `'${value.toISOString()}'`;
  throw new TypeError('prepared statement arguments are numbers, texts, lists of texts, dates or null');
}

/** An argument as a bind parameter: a date as its ISO text (what `pg` would write, in a tenth of the time), the rest as is. */
const parameter = (value: Argument): unknown => (value instanceof Date ? value.toISOString() : value);

/** An escape string constant: its text is exactly `text` whatever standard_conforming_strings says. */
function quoted(text: string): string {
  if (text.includes('\u0000')) throw new TypeError('prepared statement argument with a NUL character');
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** An element of an array's text form ({"a","b"}), quoted. */
const arrayElement = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** The part of a `pg` pool a statement prepared by the wire protocol needs. */
export interface ProtocolPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** The `pg` pool behind each PostgreSQL server's Kysely (src/db/connection.ts, replicas.ts). */
const protocolPools = new WeakMap<Kysely<any>, ProtocolPool>();

/** Runs this Kysely's prepared statements through `pool`'s named statements (PostgreSQL servers only). */
export function registerProtocolPool(db: Kysely<any>, pool: ProtocolPool): void {
  protocolPools.set(db, pool);
}

/** What each connection has prepared already, by its PGlite client on the embedded database (db/embedded.ts), by itself on a server. */
const preparedOn = new WeakMap<object, Set<string>>();
const connectionKey = (conn: DatabaseConnection): object => (conn as unknown as { client?: object }).client ?? conn;

/** SQLSTATE 26000: this connection does not know the statement (a new server session, DISCARD ALL). */
export const UNKNOWN_STATEMENT = '26000';
/** SQLSTATE 0A000: "cached plan must not change result type" (a table's columns changed under a named `select *`). */
export const CACHED_PLAN_CHANGED = '0A000';

export class PreparedStatement<A extends Argument[]> {
  /** the statement's SQL, with `$n` for the arguments (what PREPARE gets) */
  readonly sql: string;
  /** for each `$n` of the statement, the index of the argument it takes */
  private readonly slots: number[];

  /**
   * @param name a valid SQL identifier of at most 61 characters, unique in the process (it names the statement on every connection)
   * @param build the statement; it gets stand-ins for its arguments and must use them as values only
   */
  constructor(
    readonly name: string,
    arity: A['length'],
    /** the statement, or its compiled text with `$1`… `$arity` (executeShape) */
    build: ((...args: never[]) => Compilable) | string,
  ) {
    if (!/^[a-z_][a-z0-9_]{0,60}$/.test(name)) throw new Error(`prepared statement name ${name}`);
    if (typeof build === 'string') {
      this.slots = Array.from({ length: arity }, (_, i) => i);
      this.sql = build;
      return;
    }
    const markers = Array.from({ length: arity }, (_, i): Marker => ({ [ARGUMENT]: i }));
    const compiled = build(...(markers as never[])).compile();
    this.slots = compiled.parameters.map((p, i) => {
      if (!isMarker(p)) throw new Error(`${name}: parameter $${i + 1} is a constant (${String(p)}); write constants as SQL`);
      return p[ARGUMENT];
    });
    this.sql = compiled.sql;
  }

  /** Runs the statement with these arguments on a connection of `db` (never inside a transaction: a failure there would end it). */
  async execute<R>(db: Kysely<any>, ...args: A): Promise<R[]> {
    const pool = protocolPools.get(db);
    if (pool) {
      // Its own name: a transaction's EXECUTE path may have prepared `name` by SQL on the same connection.
      const name = `${this.name}_w`;
      return (await pool.query({ name, text: this.sql, values: this.slots.map((i) => parameter(args[i]!)) })).rows as R[];
    }
    return this.executeText<R>(db, this.executeSql(...args));
  }

  /** Runs `text`, this statement's EXECUTE (executeSql), preparing it first on a connection that has not. */
  async executeText<R>(db: Kysely<any>, text: string): Promise<R[]> {
    const execute = CompiledQuery.raw(text);
    return db.getExecutor().provideConnection(async (conn) => {
      const key = connectionKey(conn);
      let known = preparedOn.get(key);
      if (!known) {
        known = new Set();
        preparedOn.set(key, known);
      }
      if (!known.has(this.name)) await this.prepare(conn, known);
      try {
        return (await conn.executeQuery(execute)).rows as R[];
      } catch (err) {
        if ((err as { code?: unknown }).code !== UNKNOWN_STATEMENT) throw err;
        known.delete(this.name);
        await this.prepare(conn, known);
        return (await conn.executeQuery(execute)).rows as R[];
      }
    });
  }

  /** `EXECUTE name(…)` with these arguments as literals. */
  executeSql(...args: A): string {
    return this.slots.length ? `execute ${this.name}(${this.slots.map((i) => literal(args[i]!)).join(', ')})` : `execute ${this.name}`;
  }

  private async prepare(conn: DatabaseConnection, known: Set<string>) {
    try {
      await conn.executeQuery(CompiledQuery.raw(`prepare ${this.name} as ${this.sql}`));
    } catch (err) {
      // 42P05: prepared already on this session (by an earlier app on the same PGlite client).
      if ((err as { code?: unknown }).code !== '42P05') throw err;
    }
    known.add(this.name);
  }
}

/**
 * Statements built per request, prepared by their text: a load search's statement is the same
 * text for every search of its shape (which parameters, how many places), only the values differ.
 * PostgreSQL then parses it once per connection and, where the plan does not depend on the values
 * (it compares a generic plan's cost with the custom ones'), plans it once as well. At most
 * MAX_SHAPES statements per process (each connection keeps what it prepared); beyond, and for
 * values no literal can carry, the statement runs as an ordinary query.
 *
 * `generic: true` runs it on its generic plan whatever PostgreSQL's estimate (`set local
 * plan_cache_mode` in a short transaction of its own; inside a caller's transaction as it is): for
 * statements whose planning costs more than their running and whose generic plan PostgreSQL rates
 * dearer than it is, so that it would plan them on every execution (lanes/store.ts).
 */
const shapes = new Map<string, PreparedStatement<Argument[]>>();
const MAX_SHAPES = 100;

export async function executeShape<R>(db: Kysely<any>, query: CompiledQuery, options: { generic?: boolean } = {}): Promise<R[]> {
  if (options.generic && !db.isTransaction)
    return db.transaction().execute(async (trx) => {
      await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
      return executeShape<R>(trx, query);
    });
  let statement = shapes.get(query.sql);
  if (!statement && shapes.size < MAX_SHAPES) {
    statement = new PreparedStatement<Argument[]>(
      `fx_shape_${createHash('sha256').update(query.sql).digest('hex').slice(0, 24)}`,
      query.parameters.length,
      query.sql,
    );
    shapes.set(query.sql, statement);
  }
  if (statement && protocolPools.has(db)) return statement.execute<R>(db, ...(query.parameters as Argument[]));
  let text: string | undefined;
  try {
    text = statement?.executeSql(...(query.parameters as Argument[]));
  } catch {
    text = undefined;
  }
  if (!statement || text === undefined) return (await db.executeQuery<R>(query)).rows;
  return statement.executeText<R>(db, text);
}

/** A Kysely that only builds and compiles (PostgreSQL syntax), for statements prepared ahead of their database. */
export function statementBuilder<DB>(): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

/**
 * A PostgreSQL server's statements named on their second run, as the embedded driver names its
 * own (db/embedded.ts `NamedStatements`; docs/choices.md, "A server's statement named on its
 * second run"): Kysely sends every statement unnamed, so PostgreSQL parsed, analysed and planned
 * it again each time. A booking's refusal planned in 0.26 ms what it ran in 0.03 (the freights
 * table has three dozen indexes to weigh); an award sends two dozen such statements. Once a text
 * is seen a second time in the process, every connection that runs it parses it under a name
 * (`pg` sends Parse once per connection and Bind/Execute after that), and PostgreSQL plans it as
 * any prepared statement: custom plans first, a generic one only where it judges it as good.
 *
 * Bounded: at most MAX_NAMED names a connection (each holds its parse tree and plans in that
 * server process's memory; beyond them statements run unnamed), MAX_TEXTS texts named in the
 * process, and texts seen once remembered up to MAX_TEXTS and then forgotten together. A named
 * statement the server refuses as no longer known (26000, a session whose statements were
 * deallocated) or whose cached plan a change of a table's columns made unusable (0A000: only a
 * migration, before the app's statements) fails that once, and its text runs unnamed from then on.
 */
export function nameRepeatedStatements(pool: pg.Pool): void {
  const names = new ServerStatementNames();
  pool.on('connect', (client) => {
    // The connection's own query, as its class has it when called (a test may count statements there).
    const query = (...args: unknown[]) => (Object.getPrototypeOf(client).query as (...a: unknown[]) => unknown).apply(client, args);
    // The names this connection parsed (pg sends Parse for a name the first time a connection runs it).
    const parsed = new Set<string>();
    client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
      if (typeof text !== 'string' || (values !== undefined && !Array.isArray(values)) || callback !== undefined)
        return query(text, values, callback);
      const name = names.nameOf(text);
      if (!name || (!parsed.has(name) && parsed.size >= ServerStatementNames.MAX_NAMED)) return query(text, values);
      return (query({ name, text, values: values ?? [] }) as Promise<unknown>).then(
        (result) => {
          parsed.add(name);
          return result;
        },
        (err: unknown) => {
          const code = (err as { code?: unknown }).code;
          if (code === UNKNOWN_STATEMENT || code === CACHED_PLAN_CHANGED) names.unnamed(text);
          throw err;
        },
      );
    }) as typeof client.query;
  });
}

/** The statement texts of one pool: seen once, named (from the second run on), or to run unnamed. */
class ServerStatementNames {
  /** names a connection parses at most */
  static readonly MAX_NAMED = 250;
  /** texts named at most in the process, and texts seen once remembered at most */
  private static readonly MAX_TEXTS = 1_000;
  /** By text: its name; null when seen once; '' when it runs unnamed from now on. */
  private readonly names = new Map<string, string | null>();
  private named = 0;
  private seenOnce = 0;

  /** The name of `text` from its second run on (the same on every connection: a digest of the text); undefined while it runs unnamed. */
  nameOf(text: string): string | undefined {
    const seen = this.names.get(text);
    if (seen) return seen;
    if (seen === '') return undefined;
    if (seen === null) {
      if (this.named >= ServerStatementNames.MAX_TEXTS) return undefined;
      const name = `fx_s_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
      this.names.set(text, name);
      this.named++;
      this.seenOnce--;
      return name;
    }
    // Texts seen once are forgotten together when too many (a text with its values written in is new each time).
    if (this.seenOnce >= ServerStatementNames.MAX_TEXTS) {
      for (const [t, n] of this.names) if (n === null) this.names.delete(t);
      this.seenOnce = 0;
    }
    this.names.set(text, null);
    this.seenOnce++;
    return undefined;
  }

  unnamed(text: string): void {
    this.names.set(text, '');
  }
}
