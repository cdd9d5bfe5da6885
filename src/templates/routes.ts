import { Type } from '@sinclair/typebox';
import type { Caller, Ctx } from '../kernel/context.ts';
import { PAGE_FORM_INVALID } from '../kernel/errors.ts';
import { fail, failWith, notFound, ok } from '../kernel/outcome.ts';
import { isRecord, readId, readString, type Params } from '../kernel/params.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { FIELDS, createFreight, type AwardPath } from '../freights/index.ts';
import { FREIGHT_INPUT_SCHEMA, normaliseFreightForm, parseFreight, problemsFromWarnings } from '../freights-http/index.ts';
import { presentTemplate, TEMPLATE } from './present.ts';
import { createdFromTemplate, templateAdded, templatesPage } from './views.tsx';

/** Body keys a template keeps: the writable freight fields and the composite ones. */
const TEMPLATE_KEYS = new Set([...FIELDS.filter((f) => f.input !== 'server').map((f) => f.api), 'pieces', 'eta_range', 'etd_range']);

const companyTemplates = (ctx: Ctx<Caller>) =>
  ctx.db.selectFrom('templates').selectAll().where('company_id', '=', ctx.caller.companyId).orderBy('name').orderBy('id').execute();

/**
 * Templates (docs/reference.md#freights): the freight fields as sent, replayed through the field table
 * when a freight is created from one, so relative deadlines count from the time of use.
 */
export function templateEndpoints(parts: { award: AwardPath }): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/templates/add',
      doc: {
        summary: 'Save freight fields as a named template of the company',
        input: Type.Composite([Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }), FREIGHT_INPUT_SCHEMA]),
        data: Type.Object({ template: TEMPLATE.schema }),
      },
      // The page's form is the freight form's (German input, places, dates): read as it reads them.
      read: (ctx) => (ctx.format === 'html' ? normaliseFreightForm(ctx, 'add') : undefined),
      async handle(ctx, form) {
        const name = readString(ctx.params.name)?.trim();
        if (!name || name.length > 200 || name.includes('\u0000')) return fail(ctx.t, 'template.name_required');
        // Parsed once now for the warnings; only the readable freight keys are kept.
        const parsed = parseFreight(ctx.params, { clock: ctx.clock, handled: ['name'] });
        // A template has no edit form: from the page, one with problems is not saved but shown again.
        if (form) {
          form.warnings = parsed.warnings;
          if (Object.keys(form.problems).length || Object.keys(problemsFromWarnings(parsed.warnings, ctx.t)).length)
            return failWith(PAGE_FORM_INVALID, ctx.t('form.invalid'));
        }
        const fields: Params = {};
        for (const [key, value] of Object.entries(ctx.params)) if (TEMPLATE_KEYS.has(key)) fields[key] = value;
        const row = await ctx.db
          .insertInto('templates')
          .values({
            company_id: ctx.caller.companyId,
            user_id: ctx.caller.userId,
            name,
            fields: JSON.stringify(fields),
            created: ctx.clock.now(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return ok({ template: presentTemplate(row, ctx) }, parsed.warnings.length ? parsed.warnings : undefined);
      },
      page: (outcome, ctx, form) =>
        templateAdded(outcome, ctx, form, async () => (await companyTemplates(ctx)).map((r) => presentTemplate(r, ctx))),
    }),
    userEndpoint({
      method: 'GET',
      path: '/templates/index',
      doc: { summary: 'The templates of the caller’s company, by name', data: Type.Object({ templates: Type.Array(TEMPLATE.schema) }) },
      async handle(ctx) {
        const rows = await companyTemplates(ctx);
        return ok({ templates: rows.map((r) => presentTemplate(r, ctx)) });
      },
      page: (outcome, ctx) => templatesPage(ctx, outcome.kind === 'ok' ? outcome.data.templates : []),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/create-from-template',
      doc: {
        summary: 'Create a freight from an own template; it starts taken with the own company as carrier',
        input: Type.Object({ template_id: Type.Integer({ minimum: 1 }) }),
        data: Type.Object({ route_id: Type.Integer() }),
        answers: { 404: 'No template of the caller’s company with this id.' },
      },
      async handle(ctx) {
        const id = readId(ctx.params.template_id);
        if (!id) return notFound();
        const template = await ctx.db
          .selectFrom('templates')
          .selectAll()
          .where('id', '=', id)
          .where('company_id', '=', ctx.caller.companyId)
          .executeTakeFirst();
        if (!template) return notFound();
        const parsed = parseFreight(isRecord(template.fields) ? template.fields : {}, { clock: ctx.clock });
        // docs/reference.md#the-api: the new freight starts taken, the own company is the carrier (freights' createFreight,
        // `ownOrder`): awarded by the award path, its steps included.
        const row = await createFreight(
          ctx.db,
          ctx.clock,
          ctx.caller,
          { values: parsed.values, pieces: parsed.pieces },
          {
            kind: 'ownOrder',
            awarded: (trx, clock, freightId) => parts.award.award(trx, clock, { way: 'own_order', freightId }),
          },
        );
        return ok({ route_id: row.id }, parsed.warnings.length ? parsed.warnings : undefined);
      },
      page: createdFromTemplate,
    }),
  ];
}

/** The templates' place in the menu. */
export const TEMPLATES_SECTION = { prefix: '/templates', href: '/templates/index', label: 'nav.templates' } as const;
