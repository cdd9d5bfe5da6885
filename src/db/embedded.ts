import { type messages as protocolMessages, type PGlite, protocol, types } from '@electric-sql/pglite';
import pg from 'pg';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { CACHED_PLAN_CHANGED, UNKNOWN_STATEMENT } from './prepared.ts';

/**
 * Kysely on the embedded database (PGlite): one connection, taken in turns of the event loop
 * (docs/choices.md, Reliability: "The embedded connection is taken in turns").
 *
 * PGlite runs each statement synchronously in this thread, and a statement that finds the
 * connection free resolves in a microtask: a request's whole chain of statements (an award's
 * hundred, transactions included) ran as one stretch of the event loop, and every other request
 * waited for all of it. Beside 3 clients awarding, a 10 MB upload (its body read in 8 ms slices,
 * each waiting for such a stretch) took 14–68 s against 0.5–2 s alone (issue 39, item 9).
 *
 * Here every statement waits for a turn of the event loop before it runs (setImmediate): the
 * connection is handed to its waiters in arrival order, each in a turn of its own, and a
 * transaction's next statement waits a turn too. So no stretch of the event loop runs more than
 * one statement; requests waiting for the connection take it one statement or transaction at a
 * time, round-robin (each waits with at most one acquisition), and work that needs no database
 * (reading an upload's body, rendering an answer) runs between a transaction's statements.
 * Nothing else changes: a transaction holds the connection from its begin to its end, so no
 * statement of another request ever runs inside it, and alone a turn costs microseconds.
 */
export class EmbeddedDialect implements Dialect {
  constructor(private readonly client: PGlite) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new EmbeddedDriver(this.client);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * One statement in one call into PGlite: Parse, Bind, Describe, Execute and Sync sent together, the
 * parameters as text the way `pg` sends them to a server (the types inferred by PostgreSQL from the
 * statement, as there). PGlite's own `query` makes five calls, the first two (Parse, Describe) to
 * learn the parameters' types for its serializers before it binds them. Through Kysely a short
 * indexed read took 380-410 µs that way and 310-320 µs this way; the app's path now costs what a
 * bare `query` call costs without Kysely (docs/benchmarks.md, `npm run bench:embedded`). The rows are
 * parsed by PGlite's own parsers, so they are what `query` answered.
 *
 * A statement text met a second time is parsed once more under a name (`NamedStatements`) and from
 * then on only bound and executed: PostgreSQL skips parsing and analysing it (and, where it judges
 * a generic plan as good as the custom ones, planning it), a third less for a short read or update
 * by key (bench:embedded: 170-181 → 118-130 µs, 143-160 → 97-110 µs). Results are the same
 * statements' results; a text seen once (a migration, a one-off search) stays unnamed.
 */
async function run<R>(client: PGlite, query: CompiledQuery): Promise<{ rows: R[]; affectedRows?: number }> {
  const statements = NamedStatements.of(client);
  const known = statements.nameOf(query.sql);
  const naming = known === undefined ? statements.toName(query.sql) : undefined;
  const name = known ?? naming ?? '';
  const message = Buffer.concat([
    ...(known === undefined ? [serialize.parse({ text: query.sql, name })] : []),
    serialize.bind({ statement: name, values: query.parameters.map(parameter) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
  let messages: Awaited<ReturnType<PGlite['execProtocolStream']>>;
  try {
    // The stream variant: the messages only, not also a copy of the raw answer.
    messages = await client.execProtocolStream(message);
  } catch (err) {
    const code = (err as { code?: string }).code;
    // The session lost its statements (DISCARD ALL, DEALLOCATE): forgotten here too, run again as new.
    if (known !== undefined && code === UNKNOWN_STATEMENT) {
      statements.forgetAll();
      return run(client, query);
    }
    // A text that failed while being named runs unnamed from now on (its name may exist: counted),
    // as does one whose cached plan a change of a table's columns made unusable (0A000).
    if (naming !== undefined || (known !== undefined && code === CACHED_PLAN_CHANGED)) statements.failed(query.sql);
    throw err;
  }
  if (naming !== undefined) statements.named(query.sql, naming);
  return resultOf<R>(messages, client.parsers);
}

type Messages = Awaited<ReturnType<PGlite['execProtocolStream']>>;

/**
 * The statement's rows and count from its answer, each value read by the client's parser for its
 * type, as PGlite's `parseResults` reads them. Not through it: that copies the parsers' table into
 * a new object for every statement (`{ ...defaults, ...options.parsers }`), and a migrated
 * database's table has one parser per type, ~380 of them (every table's row type has an array
 * type): 0.2 ms of CPU a statement, more than PostgreSQL's own work for a read by key
 * (docs/benchmarks.md, "The embedded answer read without copying the parsers").
 */
function resultOf<R>(messages: Messages, parsers: PGlite['parsers']): { rows: R[]; affectedRows?: number } {
  let columns: InstanceType<typeof protocolMessages.RowDescriptionMessage>['fields'] = [];
  const rows: Record<string, unknown>[] = [];
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      columns = (message as InstanceType<typeof protocolMessages.RowDescriptionMessage>).fields;
    } else if (message.name === 'dataRow') {
      const { fields } = message as InstanceType<typeof protocolMessages.DataRowMessage>;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) row[columns[i]!.name] = types.parseType(fields[i]!, columns[i]!.dataTypeID, parsers);
      rows.push(row);
    } else if (message.name === 'commandComplete') {
      return {
        rows: rows as R[],
        affectedRows: affectedRows((message as InstanceType<typeof protocolMessages.CommandCompleteMessage>).text),
      };
    }
  }
  return { rows: rows as R[], affectedRows: 0 };
}

/** The rows a command's tag counts (`INSERT 0 3`, `UPDATE 2`, …), as PGlite reads it; 0 for the others. */
function affectedRows(tag: string): number {
  const words = tag.split(' ');
  switch (words[0]) {
    case 'INSERT':
      return Number.parseInt(words[2]!, 10);
    case 'UPDATE':
    case 'DELETE':
    case 'COPY':
    case 'MERGE':
      return Number.parseInt(words[1]!, 10);
    default:
      return 0;
  }
}

/**
 * The statement texts one PGlite session has parsed under a name (`run`): a text seen once is
 * remembered; the second time it is parsed as `S<n>` (a capital letter: never a name db/prepared.ts
 * prepares, which are SQL identifiers, folded to lower case); after that it is only bound. At most
 * `MAX_NAMED` names per session (each holds its parse tree and plans in the database's memory):
 * beyond them statements run unnamed, as every one did before. Texts seen once are remembered up
 * to twice that number, then forgotten together.
 */
class NamedStatements {
  static readonly MAX_NAMED = 500;
  private static readonly sessions = new WeakMap<PGlite, NamedStatements>();
  /** By text: its name; null once seen unnamed; '' when it failed while being named (it stays unnamed). */
  private readonly names = new Map<string, string | null>();
  /** Names given, including those of texts that failed while being named. */
  private count = 0;
  private next = 0;

  static of(client: PGlite): NamedStatements {
    const found = NamedStatements.sessions.get(client);
    if (found) return found;
    const made = new NamedStatements();
    NamedStatements.sessions.set(client, made);
    return made;
  }

  /** The name a text was parsed under; undefined when it has none. */
  nameOf(text: string): string | undefined {
    return this.names.get(text) || undefined;
  }

  /** A name to parse `text` under now (its second time), or undefined to run it unnamed (remembered as seen). */
  toName(text: string): string | undefined {
    const seen = this.names.get(text);
    if (seen === null && this.count < NamedStatements.MAX_NAMED) {
      this.count++;
      return `S${++this.next}`;
    }
    if (seen === undefined) {
      // Texts seen once are forgotten together when too many (EXECUTE texts of db/prepared.ts carry
      // their arguments: each is new): a text run again soon after is still seen twice.
      if (this.names.size >= 2 * NamedStatements.MAX_NAMED) for (const [t, n] of this.names) if (n === null) this.names.delete(t);
      this.names.set(text, null);
    }
    return undefined;
  }

  named(text: string, name: string): void {
    this.names.set(text, name);
  }

  failed(text: string): void {
    this.names.set(text, '');
  }

  forgetAll(): void {
    this.names.clear();
    this.count = 0;
  }
}

const { serialize } = protocol;

/**
 * A parameter as `pg` writes it for a server, where the same statements meet it: its own
 * `prepareValue` (bytes as binary, a list as an array literal, another object as JSON, anything
 * else as its string), a date given as its ISO instant first, as db/prepared.ts does (pg's own
 * date text costs ten times as much and names the same instant).
 */
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): string | Buffer | null } }).utils;
const parameter = (value: unknown) => prepareValue(value instanceof Date ? value.toISOString() : value);

class EmbeddedConnection implements DatabaseConnection {
  /** Given by a turn of its own and not used since: its first statement runs without another. */
  fresh = false;

  constructor(readonly client: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.fresh) this.fresh = false;
    else await turn();
    const result = await this.client.runExclusive(() => run<R>(this.client, query));
    return result.affectedRows ? { numAffectedRows: BigInt(result.affectedRows), rows: result.rows } : { rows: result.rows };
  }

  /** PGlite answers the rows whole: they are handed on in chunks. */
  async *streamQuery<R>(query: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(query);
    for (let at = 0; at < rows.length; at += chunkSize) yield { rows: rows.slice(at, at + chunkSize) };
  }
}

class EmbeddedDriver implements Driver {
  private readonly connection: EmbeddedConnection;
  private held = false;
  /** A turn is already asked for to hand the connection to the first waiter. */
  private handing = false;
  private readonly waiting: Array<(connection: DatabaseConnection) => void> = [];

  constructor(private readonly client: PGlite) {
    this.connection = new EmbeddedConnection(client);
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.handOn();
    });
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection !== this.connection || !this.held) throw new Error('the embedded connection was released twice');
    this.held = false;
    this.handOn();
  }

  /** The connection to the first waiter, in a turn of the event loop of its own. */
  private handOn(): void {
    if (this.held || this.handing || this.waiting.length === 0) return;
    this.handing = true;
    setImmediate(() => {
      this.handing = false;
      const next = this.waiting.shift();
      if (!next) return;
      this.held = true;
      this.connection.fresh = true;
      next(this.connection);
    });
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const modes = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '',
      settings.accessMode ? settings.accessMode : '',
    ].filter(Boolean);
    await connection.executeQuery(CompiledQuery.raw(modes.length ? `start transaction ${modes.join(', ')}` : 'begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    if (!this.client.closed) await this.client.close();
  }
}
