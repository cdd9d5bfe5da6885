import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DELIVERY } from '../freights/index.ts';
import type { Caller, Ctx, Services } from '../kernel/context.ts';
import { translator } from '../kernel/i18n.ts';
import { fail, notFound, ok, rejected, type Answer, type Outcome } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import { renderJson } from '../kernel/render.tsx';
import { callerOfRequest, registerEndpoints, userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import type { Clock } from '../kernel/time.ts';
import { attachment, decodeContent, problemData, readDocument, UPLOAD_BODY_LIMIT, type DocumentProblem } from './content.ts';
import {
  addDocument,
  deliverWithPod,
  documentFreight,
  downloadDocument,
  listDocuments,
  postMessage,
  readConversations,
  readOrder,
  unreadOf,
  type Conversation,
} from './room.ts';
import { DEAL_DOCS, DOCUMENT, MESSAGE, type DocumentView, type MessageView } from './schema.ts';
import { MAX_DOCUMENT_BYTES, NAME_MAX, TEXT_MAX, TEXT_MIN } from './tables.ts';
import { unreadPage } from './views.tsx';

/**
 * The deal room's endpoints (decisions.md §13): conversations and documents beside a freight.
 * HTTP in, one call of room.ts, outcome out. Two routes live outside the kernel's endpoint table:
 * the page's multipart upload (the only route that reads multipart, in a scope of its own) and
 * the download (exact bytes, not the envelope), both registered by `registerDealRoutes`.
 */

const freightPage = (id: number, part: 'messages' | 'documents') => `/freights/view/${id}#${part}`;
const MB = MAX_DOCUMENT_BYTES / (1024 * 1024);

const presentConversation = (c: Conversation, clock: Clock) => ({
  company: c.company,
  messages: c.messages.map((m) => MESSAGE.present(m, { clock })),
});

/** A refused document: a field error (`data.errors`), in the caller's words. */
function refusedDocument(ctx: Ctx<Caller>, problem: DocumentProblem): Outcome<never> {
  const vars = { max: problem === 'documents.too_large' ? MB : NAME_MAX };
  return fail(ctx.t, problem, vars, problemData(problem, ctx.t(problem, vars)));
}

/** HTML forms go back to the freight page's part they were sent from, with the outcome as the flash. */
const backTo =
  (part: 'messages' | 'documents', done: 'deal.messages.sent' | 'deal.documents.uploaded' | 'deal.pod.done') =>
  (outcome: Answer, ctx: Ctx<Caller>): PageResult => {
    const id = readId(ctx.path.freightId);
    const to = id === undefined ? '/messages/unread' : freightPage(id, part);
    return outcome.kind === 'ok' ? { redirect: to, ok: true, message: ctx.t(done) } : { redirect: to, ok: false, message: outcome.message };
  };

/** Adds a document that was read (JSON's base64, or the page's file), or refuses it with its field error. */
async function attach(
  ctx: Ctx<Caller>,
  bytes: Buffer | { problem: DocumentProblem },
  fileName?: string,
): Promise<Outcome<{ document: DocumentView }>> {
  const freightId = readId(ctx.path.freightId);
  if (freightId === undefined) return notFound();
  // Who may attach is checked before the document is: an outsider learns nothing from a refusal.
  const freight = await documentFreight(ctx.db, ctx.clock, ctx.caller.companyId, freightId);
  if (!freight) return notFound();
  const read = readDocument(ctx.params, bytes, fileName);
  if (!read.ok) return refusedDocument(ctx, read.problem);
  const added = await addDocument(ctx.db, ctx.clock, ctx.caller, freight, read.input);
  return added ? ok({ document: DOCUMENT.present(added, ctx) }) : notFound();
}

/**
 * Adds the proof of delivery and marks the freight delivered (room.ts deliverWithPod), or refuses
 * the file with its field error, or the step (not taken) with its code.
 */
async function deliver(
  ctx: Ctx<Caller>,
  bytes: Buffer | { problem: DocumentProblem },
  fileName?: string,
): Promise<Outcome<{ document: DocumentView; freight: { id: number; status: 'closed'; delivery_status: typeof DELIVERY.delivered } }>> {
  const freightId = readId(ctx.path.freightId);
  if (freightId === undefined) return notFound();
  const freight = await documentFreight(ctx.db, ctx.clock, ctx.caller.companyId, freightId);
  if (!freight) return notFound();
  const read = readDocument({ ...ctx.params, kind: 'pod' }, bytes, fileName);
  if (!read.ok) return refusedDocument(ctx, read.problem);
  const done = await deliverWithPod(ctx.db, ctx.clock, ctx.caller, freight, read.input);
  if (done.kind === 'not_found') return notFound();
  if (done.kind === 'refused') return fail(ctx.t, done.reason);
  return ok({
    document: DOCUMENT.present(done.document, ctx),
    freight: { id: freightId, status: 'closed', delivery_status: DELIVERY.delivered },
  });
}

/** The page's proof of delivery goes back to the documents, with the outcome as the flash. */
const backFromPod = backTo('documents', 'deal.pod.done');

export function dealEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/freights/messages/:freightId',
      doc: DEAL_DOCS.post,
      async handle(ctx): Promise<Outcome<{ message: MessageView }>> {
        const freightId = readId(ctx.path.freightId);
        if (freightId === undefined) return notFound();
        const result = await postMessage(ctx.db, ctx.clock, ctx.caller, freightId, ctx.params.text, readId(ctx.params.company));
        if (result.kind === 'not_found') return notFound();
        if (result.kind === 'refused') {
          const vars = { min: TEXT_MIN, max: TEXT_MAX };
          const field = result.reason === 'messages.text_invalid' ? 'text' : 'company';
          return fail(ctx.t, result.reason, vars, { errors: [{ field, reason: ctx.t(result.reason, vars) }] });
        }
        return ok({ message: MESSAGE.present(result.message, ctx) });
      },
      page: backTo('messages', 'deal.messages.sent'),
    }),
    userEndpoint({
      method: 'GET',
      path: '/freights/messages/:freightId',
      doc: DEAL_DOCS.read,
      async handle(ctx) {
        const freightId = readId(ctx.path.freightId);
        const found = freightId === undefined ? undefined : await readConversations(ctx.db, ctx.clock, ctx.caller, freightId);
        return found ? ok({ conversations: found.map((c) => presentConversation(c, ctx.clock)) }) : notFound();
      },
      page: (_outcome, ctx) => ({ redirect: freightPage(readId(ctx.path.freightId)!, 'messages') }),
    }),
    userEndpoint({
      method: 'GET',
      path: '/messages/unread',
      doc: DEAL_DOCS.unread,
      async handle(ctx) {
        return ok({ unread: await unreadOf(ctx.db, ctx.clock, ctx.caller.companyId) });
      },
      page: (outcome, ctx) => unreadPage(ctx, outcome.kind === 'ok' ? outcome.data.unread : { count: 0, freights: [] }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/documents/:freightId',
      doc: DEAL_DOCS.add,
      bodyLimit: UPLOAD_BODY_LIMIT,
      async handle(ctx) {
        const decoded = decodeContent(ctx.params.content);
        return attach(ctx, decoded.ok ? decoded.bytes : { problem: decoded.problem });
      },
      page: backTo('documents', 'deal.documents.uploaded'),
    }),
    userEndpoint({
      method: 'GET',
      path: '/freights/documents/:freightId',
      doc: DEAL_DOCS.list,
      async handle(ctx) {
        const freightId = readId(ctx.path.freightId);
        const found = freightId === undefined ? undefined : await listDocuments(ctx.db, ctx.clock, ctx.caller.companyId, freightId);
        return found ? ok({ documents: found.map((d) => DOCUMENT.present(d, ctx)) }) : notFound();
      },
      page: (_outcome, ctx) => ({ redirect: freightPage(readId(ctx.path.freightId)!, 'documents') }),
    }),
    userEndpoint({
      method: 'GET',
      path: '/freights/order/:freightId',
      doc: DEAL_DOCS.order,
      async handle(ctx) {
        const freightId = readId(ctx.path.freightId);
        const found = freightId === undefined ? undefined : await readOrder(ctx.db, ctx.clock, ctx.caller.companyId, freightId);
        return found ? ok({ order: found.order, document: DOCUMENT.present(found.document, ctx) }) : notFound();
      },
      page: (_outcome, ctx) => ({ redirect: freightPage(readId(ctx.path.freightId)!, 'documents') }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/pod/:freightId',
      doc: DEAL_DOCS.pod,
      bodyLimit: UPLOAD_BODY_LIMIT,
      async handle(ctx) {
        const decoded = decodeContent(ctx.params.content);
        return deliver(ctx, decoded.ok ? decoded.bytes : { problem: decoded.problem });
      },
      page: backFromPod,
    }),
  ];
}

/** The page's file as the multipart reader left it on the request (`onFile`). */
const UPLOADED = Symbol('deals.uploaded');
/** Set once the multipart body was read in full (the scope's preHandler). */
const BODY_READ = Symbol('deals.bodyRead');
interface Uploaded {
  fileName: string;
  bytes: Buffer;
  truncated: boolean;
}
type WithUpload = FastifyRequest & { [UPLOADED]?: Uploaded; [BODY_READ]?: boolean };

/** The file the multipart reader left on the request, or why there is none to read. */
function uploadedFile(ctx: Ctx<Caller>): { bytes: Buffer | { problem: DocumentProblem }; fileName?: string } {
  const file = (ctx.req as WithUpload)[UPLOADED];
  if (!file) return { bytes: { problem: 'documents.content_invalid' } };
  return { bytes: file.truncated ? { problem: 'documents.too_large' } : file.bytes, fileName: file.fileName };
}

/** The page's upload form (multipart): the same rules as the JSON upload, the file instead of base64. */
const uploadEndpoint = userEndpoint({
  method: 'POST',
  path: '/freights/upload/:freightId',
  json: false,
  async handle(ctx) {
    const file = uploadedFile(ctx);
    return attach(ctx, file.bytes, file.fileName);
  },
  page: backTo('documents', 'deal.documents.uploaded'),
});

/** The page's proof of delivery (multipart): the POD's file, and the freight marked delivered. */
const podUploadEndpoint = userEndpoint({
  method: 'POST',
  path: '/freights/pod-upload/:freightId',
  json: false,
  async handle(ctx) {
    const file = uploadedFile(ctx);
    return deliver(ctx, file.bytes, file.fileName);
  },
  page: backFromPod,
});

/**
 * The routes outside the endpoint table: the multipart upload, in a scope of its own so that no
 * other route reads multipart, its limits at the document bound (a larger file is read no
 * further and refused with the field error); and the download.
 */
export async function registerDealRoutes(http: FastifyInstance, services: Services): Promise<Endpoint[]> {
  await http.register(async (scope) => {
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      throwFileSizeLimit: false,
      limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 5, fieldSize: 4096, parts: 6 },
      async onFile(part) {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        (this as WithUpload)[UPLOADED] = { fileName: part.filename, bytes: Buffer.concat(chunks), truncated: part.file.truncated };
        // The body keeps the other fields; the bytes stay on the request.
        (part as unknown as { value: string }).value = '';
      },
    });
    // A multipart body that cannot be read (cut off, a broken part header) is the sender's fault:
    // 400, never a 500. Once the body is read (preHandler), any other error keeps its status.
    scope.addHook('preHandler', async (req) => {
      (req as WithUpload)[BODY_READ] = true;
    });
    scope.setErrorHandler((error: FastifyError, req) => {
      if (!(req as WithUpload)[BODY_READ] && !(error.statusCode && error.statusCode < 500)) error.statusCode = 400;
      throw error; // answered by the server's own error handler, in the contract's shapes
    });
    registerEndpoints(scope, services, [uploadEndpoint, podUploadEndpoint]);
  });
  http.get(
    '/freights/document/:id',
    {
      config: {
        openapi: {
          auth: 'user',
          doc: DEAL_DOCS.download,
          mediaType: 'application/octet-stream',
          error: Type.Ref('ErrorEnvelope'),
          errorType: 'application/json',
        },
      },
    },
    (req, reply) => download(services, req, reply),
  );
  return [uploadEndpoint, podUploadEndpoint];
}

/** GET /freights/document/{id}: the exact bytes, never rendered by the browser (attachment, nosniff). */
async function download(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const caller = await callerOfRequest(services, req);
  if (!caller) return renderJson(reply, rejected(401, 'auth.unauthorized', translator('eng')('error.unauthorized')), null);
  const id = readId((req.params as { id?: string }).id);
  const found = id === undefined ? undefined : await downloadDocument(services.db, services.clock, caller.companyId, id);
  if (!found) return renderJson(reply, notFound(), caller);
  return reply
    .code(200)
    .header('content-type', found.document.media_type)
    .header('content-disposition', attachment(found.document.name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(found.bytes);
}
