import { Type } from '@sinclair/typebox';
import type { Ctx } from '../kernel/context.ts';
import { field, presenter } from '../kernel/fields.ts';
import { isRecord } from '../kernel/params.ts';
import type { TemplateRow } from './tables.ts';

/** A template as the API answers it (`data.template`, `data.templates`). */
export const TEMPLATE = presenter<TemplateRow>()('Template', 'A freight template of a company: the freight fields as sent', {
  id: field.id('id'),
  name: field.text('name'),
  company: field.id('company_id'),
  user: field.id('user_id'),
  fields: field.computed(Type.Object({}, { additionalProperties: true, description: 'the freight fields as sent' }), (row) =>
    isRecord(row.fields) ? row.fields : {},
  ),
  created: field.time('created'),
});
export const presentTemplate = (row: TemplateRow, ctx: Ctx) => TEMPLATE.present(row, ctx);
export type TemplateView = ReturnType<typeof presentTemplate>;
