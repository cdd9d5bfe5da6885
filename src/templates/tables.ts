import type { ColumnType, Generated, Selectable } from 'kysely';

/** The templates module's table: a company's saved freight fields, replayed when a freight is made from one. */
export interface TemplatesTable {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  name: string;
  /** The freight fields as sent (json column): written with JSON.stringify, read back parsed. */
  fields: ColumnType<unknown, string, string>;
  created: Date;
}

/** A template as its row is read back. */
export type TemplateRow = Selectable<TemplatesTable>;

export interface TemplateTables {
  templates: TemplatesTable;
}
