import type { Caller, Ctx } from '../kernel/context.ts';
import { fail, notFound, ok, type Outcome } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import { publicEndpoint, userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import {
  issueConsigneeLink,
  openConsigneeLink,
  readCmr,
  readSignature,
  sidesOf,
  signCmr,
  signThroughLink,
  verifyCmr,
  type CmrView,
  type InputProblem,
} from './cmr.ts';
import { translator } from '../kernel/i18n.ts';
import type { DocumentView } from '../deals/index.ts';
import { DOCUMENT } from '../deals/index.ts';
import { CMR_DOCS } from './schema.ts';
import { NAME_MAX, NAME_MIN, RESERVATIONS_MAX } from './tables.ts';
import { cmrPage, consigneePage, verifyPage } from './views.tsx';

/** The e-CMR's endpoints (docs/reference.md#ecmr): HTTP in, one call of cmr.ts, outcome out. */

const NUMBER = /^[A-Z0-9-]{1,40}$/;

/** A refused field: the field error (`data.errors`), in the caller's words. */
export function refusedField(ctx: Ctx<Caller | null>, problem: InputProblem, field: string): Outcome<never> {
  const vars = { min: NAME_MIN, max: problem === 'cmr.name_invalid' ? NAME_MAX : RESERVATIONS_MAX };
  return fail(ctx.t, problem, vars, { errors: [{ field, reason: ctx.t(problem, vars) }] });
}

const notePath = (id: number) => `/freights/cmr/${id}`;

export function cmrEndpoints(publicUrl: string): Endpoint[] {
  return [
    userEndpoint<{ cmr: CmrView }>({
      method: 'GET',
      path: '/freights/cmr/:freightId',
      doc: CMR_DOCS.read,
      async handle(ctx) {
        const id = readId(ctx.path.freightId);
        const cmr = id === undefined ? undefined : await readCmr(ctx.db, ctx.clock, ctx.caller.companyId, id);
        return cmr ? ok({ cmr }) : notFound();
      },
      async page(outcome, ctx): Promise<PageResult> {
        const id = readId(ctx.path.freightId)!;
        return cmrPage(ctx, outcome, await sidesOf(ctx.db, ctx.clock, ctx.caller.companyId, id), id);
      },
    }),
    userEndpoint<{ cmr: CmrView; document: DocumentView }>({
      method: 'POST',
      path: '/freights/cmr-sign/:freightId',
      doc: CMR_DOCS.sign,
      async handle(ctx) {
        const id = readId(ctx.path.freightId);
        if (id === undefined) return notFound();
        const read = readSignature(ctx.params, ['sender', 'carrier', 'consignee']);
        if (!read.ok) return refusedField(ctx, read.problem, read.field);
        const signed = await signCmr(ctx.db, ctx.clock, ctx.caller, id, read.input, publicUrl);
        if (signed.kind === 'not_found') return notFound();
        if (signed.kind === 'refused') return fail(ctx.t, signed.reason);
        return ok({ cmr: signed.cmr, document: DOCUMENT.present(signed.document, ctx) });
      },
      page(outcome, ctx): PageResult {
        const id = readId(ctx.path.freightId);
        const to = id === undefined ? '/' : notePath(id);
        return outcome.kind === 'ok'
          ? { redirect: to, ok: true, message: ctx.t('cmr.page.signed') }
          : { redirect: to, ok: false, message: outcome.message };
      },
    }),
    publicEndpoint<{ valid: boolean; status: string }, { number: string; hash: string }>({
      method: 'GET',
      path: '/cmr/verify/:number',
      doc: CMR_DOCS.verify,
      read: (ctx) => ({
        number: String(ctx.path.number ?? ''),
        hash: typeof ctx.params.hash === 'string' ? ctx.params.hash.slice(0, 200) : '',
      }),
      async handle(ctx, input) {
        if (!NUMBER.test(input.number)) return notFound();
        const found = await verifyCmr(ctx.db, input.number, input.hash);
        return found ? ok(found) : notFound();
      },
      page: (outcome, ctx, input) => verifyPage(ctx, input.number, input.hash, outcome),
    }),
  ];
}

const LANGUAGES = ['eng', 'deu'] as const;

/** The consignee's page speaks the language chosen on it (`lang`), else the browser's. */
function chooseLanguage(ctx: Ctx<Caller | null>): void {
  const lang = ctx.params.lang;
  if (typeof lang === 'string' && (LANGUAGES as readonly string[]).includes(lang)) {
    ctx.language = lang as (typeof LANGUAGES)[number];
    ctx.t = translator(ctx.language);
  }
}

/** The consignee's link's token from the path, bounded. */
const tokenOf = (ctx: Ctx<Caller | null>) => String(ctx.path.token ?? '').slice(0, 100);

export function consigneeEndpoints(publicUrl: string): Endpoint[] {
  return [
    userEndpoint<{ link: { url: string; expires: string } }>({
      method: 'POST',
      path: '/freights/cmr-link/:freightId',
      doc: CMR_DOCS.link,
      async handle(ctx) {
        const id = readId(ctx.path.freightId);
        if (id === undefined) return notFound();
        const issued = await issueConsigneeLink(ctx.db, ctx.clock, ctx.caller, id);
        if (issued.kind === 'not_found') return notFound();
        if (issued.kind === 'refused') return fail(ctx.t, issued.reason);
        const url = `${publicUrl.replace(/\/+$/, '')}/cmr/consignee/${issued.token}`;
        return ok({ link: { url, expires: ctx.clock.format(issued.expires) ?? '' } });
      },
      page(outcome, ctx): PageResult {
        const id = readId(ctx.path.freightId);
        const to = id === undefined ? '/' : notePath(id);
        if (outcome.kind !== 'ok') return { redirect: to, ok: false, message: outcome.message };
        return {
          redirect: to,
          ok: true,
          message: ctx.t('cmr.link.made', { url: outcome.data.link.url, expires: outcome.data.link.expires }),
        };
      },
    }),
    publicEndpoint<{ cmr: CmrView; expires: string }>({
      method: 'GET',
      path: '/cmr/consignee/:token',
      doc: CMR_DOCS.consignee,
      async handle(ctx) {
        chooseLanguage(ctx);
        const opened = await openConsigneeLink(ctx.db, ctx.clock, tokenOf(ctx));
        return opened ? ok({ cmr: opened.cmr, expires: ctx.clock.format(opened.link.expires) ?? '' }) : notFound();
      },
      page: (outcome, ctx) =>
        outcome.kind === 'ok'
          ? consigneePage(ctx, tokenOf(ctx), outcome.data.cmr)
          : { title: ctx.t('cmr.title'), body: <p class="flash error">{outcome.message}</p> },
    }),
    publicEndpoint<{ cmr: CmrView }>({
      method: 'POST',
      path: '/cmr/consignee/:token',
      doc: CMR_DOCS.consigneeSign,
      async handle(ctx) {
        chooseLanguage(ctx);
        const read = readSignature({ ...ctx.params, role: 'consignee' }, ['consignee']);
        if (!read.ok) return refusedField(ctx, read.problem, read.field);
        const signed = await signThroughLink(ctx.db, ctx.clock, tokenOf(ctx), read.input, publicUrl);
        if (signed.kind === 'not_found') return notFound();
        if (signed.kind === 'refused') return fail(ctx.t, signed.reason);
        return ok({ cmr: signed.cmr });
      },
      // Signed: the link ended with the delivery, so the answer is the signed note's page itself (no redirect to an ended link).
      page(outcome, ctx): PageResult {
        const to = `/cmr/consignee/${encodeURIComponent(tokenOf(ctx))}?lang=${ctx.language}`;
        return outcome.kind === 'ok'
          ? consigneePage(ctx, tokenOf(ctx), outcome.data.cmr)
          : { redirect: to, ok: false, message: outcome.message };
      },
    }),
  ];
}
