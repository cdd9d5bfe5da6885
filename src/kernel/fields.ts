import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { Clock } from './time.ts';

/**
 * A resource's field table for presenting: each API field names its source in the row, how it
 * is shown and its JSON Schema. One table gives the presenter (row -> answer object, typed from
 * the schema) and the schema of the API description (src/openapi), so they cannot drift apart.
 *
 *   export const BID = presenter<BidRow>()('Bid', 'A bid on a freight', {
 *     id: field.id('id'),
 *     amount: field.decimal('amount', 'the offered price'),
 *   });
 *   BID.present(row, { clock })  // { id: number; amount: number | null }
 *   BID.schema                   // the object schema, component 'Bid' of /openapi.json
 */

export interface PresentCtx {
  clock: Clock;
}

export interface Field<Row, S extends TSchema = TSchema> {
  schema: S;
  value(row: Row, ctx: PresentCtx): unknown;
}

type Key<Row> = Extract<keyof Row, string>;
const opts = (description?: string) => (description ? { description } : {});
const orNull = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()], opts(schema.description));
const number = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** `YYYY-MM-DD HH:MM:SS` in the application's time zone (docs/reference.md#conventions item 4). */
export const timestamp = (description = 'YYYY-MM-DD HH:MM:SS, application time zone') =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', description });

export const field = {
  /** A database id or another integer column. */
  id: <Row>(column: Key<Row>, description?: string) => ({ schema: Type.Integer(opts(description)), value: (row: Row) => row[column] }),
  idOrNull: <Row>(column: Key<Row>, description?: string) => ({
    schema: orNull(Type.Integer(opts(description))),
    value: (row: Row) => row[column] ?? null,
  }),
  text: <Row>(column: Key<Row>, description?: string) => ({ schema: Type.String(opts(description)), value: (row: Row) => row[column] }),
  textOrNull: <Row>(column: Key<Row>, description?: string) => ({
    schema: orNull(Type.String(opts(description))),
    value: (row: Row) => row[column] ?? null,
  }),
  /** One of fixed values. */
  choice: <Row, const V extends readonly string[]>(column: Key<Row>, values: V, description?: string) => ({
    schema: Type.Union(
      values.map((v) => Type.Literal(v as V[number])),
      opts(description),
    ),
    value: (row: Row) => row[column],
  }),
  /** numeric column (an exact decimal string) shown as a JSON number: money and weights. */
  decimal: <Row>(column: Key<Row>, description?: string) => ({
    schema: orNull(Type.Number(opts(description))),
    value: (row: Row) => number(row[column]),
  }),
  boolean: <Row>(column: Key<Row>, description?: string) => ({
    schema: Type.Boolean(opts(description)),
    value: (row: Row) => Boolean(row[column]),
  }),
  time: <Row>(column: Key<Row>, description?: string) => ({
    schema: timestamp(description),
    value: (row: Row, ctx: PresentCtx) => ctx.clock.format(row[column] as Date),
  }),
  timeOrNull: <Row>(column: Key<Row>, description?: string) => ({
    schema: orNull(timestamp(description)),
    value: (row: Row, ctx: PresentCtx) => ctx.clock.format((row[column] as Date | null) ?? null),
  }),
  /** Any other value with its own schema, computed from the row. */
  computed: <Row, S extends TSchema>(schema: S, value: (row: Row, ctx: PresentCtx) => Static<S>) => ({ schema, value }),
};

export type Fields<Row> = Record<string, Field<Row>>;

/** The answer object a field table produces, typed from its schemas. */
// biome-ignore lint/suspicious/noExplicitAny: any row type: a presenter's answer depends on its schemas only
export type Presented<F extends Fields<any>> = { [K in keyof F]: Static<F[K]['schema']> };

export interface Presenter<Row, F extends Fields<Row>> {
  /** The answer object's JSON Schema, component `$id` of the API description. */
  schema: TObject<{ [K in keyof F]: F[K]['schema'] }>;
  present(row: Row, ctx: PresentCtx): Presented<F>;
}

/**
 * A presenter and its schema from one field table (keys are the API names, in answer order).
 * Curried so the row type is given and the table's types are inferred: `presenter<Row>()(…)`.
 */
export function presenter<Row>() {
  return <F extends Fields<Row>>(name: string, description: string, fields: F): Presenter<Row, F> => {
    const entries = Object.entries(fields);
    const schema = Type.Object(Object.fromEntries(entries.map(([k, f]) => [k, f.schema])) as { [K in keyof F]: F[K]['schema'] }, {
      $id: name,
      description,
    });
    return {
      schema,
      present(row, ctx) {
        const out: Record<string, unknown> = {};
        for (const [k, f] of entries) out[k] = f.value(row, ctx);
        return out as Presented<F>;
      },
    };
  };
}
