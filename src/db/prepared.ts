import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable, type DatabaseConnection } from 'kysely';

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
 * EXECUTE is a utility statement, which takes no bind parameters, so the arguments travel as SQL
 * literals; only integers, dates and null are accepted (written by this file, never from text).
 */

export type Argument = number | Date | null;

const ARGUMENT = Symbol('prepared statement argument');
type Marker = { readonly [ARGUMENT]: number };

const isMarker = (value: unknown): value is Marker => typeof value === 'object' && value !== null && ARGUMENT in value;

function literal(value: Argument): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`prepared statement argument ${value} is not an integer`);
    return String(value);
  }
  if (value instanceof Date && !Number.isNaN(value.getTime())) return `'${value.toISOString()}'`;
  throw new TypeError('prepared statement arguments are integers, dates or null');
}

/** What each connection has prepared already. PGlite's dialect wraps its one client anew per use, so that client is the key there. */
const preparedOn = new WeakMap<object, Set<string>>();
const connectionKey = (conn: DatabaseConnection): object => (conn as unknown as { client?: object }).client ?? conn;

/** SQLSTATE 26000: this connection does not know the statement (a new server session, DISCARD ALL). */
const UNKNOWN_STATEMENT = '26000';

export class PreparedStatement<A extends Argument[]> {
  /** the statement's SQL, with `$n` for the arguments (what PREPARE gets) */
  readonly sql: string;
  /** for each `$n` of the statement, the index of the argument it takes */
  private readonly slots: number[];

  /**
   * @param name a valid SQL identifier, unique in the process (it names the statement on every connection)
   * @param build the statement; it gets stand-ins for its arguments and must use them as values only
   */
  constructor(
    readonly name: string,
    arity: A['length'],
    build: (...args: never[]) => Compilable,
  ) {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`prepared statement name ${name}`);
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
    const execute = CompiledQuery.raw(this.executeSql(...args));
    return db.getExecutor().provideConnection(async (conn) => {
      const key = connectionKey(conn);
      let known = preparedOn.get(key);
      if (!known) preparedOn.set(key, (known = new Set()));
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
