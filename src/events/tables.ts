import type { Generated } from 'kysely';

export interface EventsTable {
  /** Order of writing (internal); `id` is the public, unguessable event id. */
  seq: Generated<number>;
  id: string;
  type: string;
  /** The recipient: the company whose view `body` renders. */
  company_id: number;
  freight_id: number | null;
  /** The exact JSON delivered: {id, type, created, company, data}. */
  body: string;
  created: Date;
}

export interface EventTables {
  events: EventsTable;
}
