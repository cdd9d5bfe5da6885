import { Readable } from 'node:stream';
import multipart, { type MultipartFile, type Multipart } from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DELIVERY, type FreightRow } from '../freights/index.ts';
import type { Caller, Ctx, Services } from '../kernel/context.ts';
import { translator } from '../kernel/i18n.ts';
import { readStreamedJson } from '../kernel/json-stream.ts';
import { fail, notFound, ok, rejected, type Answer, type Outcome } from '../kernel/outcome.ts';
import { pacer } from '../kernel/pace.ts';
import { readId } from '../kernel/params.ts';
import { renderJson } from '../kernel/render.tsx';
import { callerOfRequest, registerEndpoints, userEndpoint, type Endpoint, type PageResult } from '../kernel/route.tsx';
import type { Clock } from '../kernel/time.ts';
import {
  attachment,
  DOCUMENT_MEDIA_TYPES,
  downloadName,
  Base64Reader,
  OTHER_FIELDS_CHARS,
  problemData,
  readDocument,
  UPLOAD_BODY_LIMIT,
  type DocumentProblem,
  type UploadResult,
} from './content.ts';
import {
  addDocument,
  deliverWithPod,
  documentFreight,
  downloadDocument,
  listDocuments,
  postMessage,
  readConversations,
  giveTransport,
  readOrder,
  unreadOf,
  type Conversation,
  type OrderFollower,
} from './room.ts';
import { readTransport, TRANSPORT_LIMITS } from './order.ts';
import { DEAL_DOCS, DOCUMENT, MESSAGE, type DocumentView, type MessageView } from './schema.ts';
import { MAX_DOCUMENT_BYTES, MAX_DOCUMENT_MB, NAME_MAX, TEXT_MAX, TEXT_MIN } from './tables.ts';
import { DocumentUpload } from './upload.ts';
import { unreadPage } from './views.tsx';

/**
 * The deal room's endpoints (docs/reference.md#deal-room): conversations and documents beside a freight.
 * HTTP in, one call of room.ts, outcome out. The uploads (the JSON's base64 and the page's
 * multipart file, for documents and the proof of delivery) live in a scope of their own whose
 * bodies are read as they arrive, after the caller is authenticated and found to be a party
 * (EndpointSpec.admit); the download (exact bytes, not the envelope) streams the parts. Both are
 * registered by `registerDealRoutes`.
 */

const freightPage = (id: number, part: 'messages' | 'documents') => `/freights/view/${id}#${part}`;

const presentConversation = (c: Conversation, clock: Clock) => ({
  company: c.company,
  messages: c.messages.map((m) => MESSAGE.present(m, { clock })),
});

/** A refused document: a field error (`data.errors`), in the caller's words. */
function refusedDocument(ctx: Ctx<Caller>, problem: DocumentProblem): Outcome<never> {
  const vars = { max: problem === 'documents.too_large' ? MAX_DOCUMENT_MB : NAME_MAX };
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

/** The document's bytes as the request brought them (received), with the file's own name from a page. */
interface Received {
  result: UploadResult;
  upload?: DocumentUpload;
  fileName?: string;
}

/** Adds a document that was received, or refuses it with its field error (its parts removed). */
async function attach(ctx: Ctx<Caller>, received: Received): Promise<Outcome<{ document: DocumentView }>> {
  const freight = admittedFreight(ctx);
  const read = readDocument(ctx.params, received.result, received.fileName);
  if (!read.ok) {
    await received.upload?.discard();
    return refusedDocument(ctx, read.problem);
  }
  received.upload?.keep(); // room.ts writes the row, or removes the parts itself
  const added = await addDocument(ctx.db, ctx.clock, ctx.caller, freight, read.input);
  return added ? ok({ document: DOCUMENT.present(added, ctx) }) : notFound();
}

/**
 * Adds the proof of delivery and marks the freight delivered (room.ts deliverWithPod), or refuses
 * the file with its field error, or the step (not taken) with its code.
 */
async function deliver(
  ctx: Ctx<Caller>,
  received: Received,
): Promise<Outcome<{ document: DocumentView; freight: { id: number; status: 'closed'; delivery_status: typeof DELIVERY.delivered } }>> {
  const freight = admittedFreight(ctx);
  const read = readDocument({ ...ctx.params, kind: 'pod' }, received.result, received.fileName);
  if (!read.ok) {
    await received.upload?.discard();
    return refusedDocument(ctx, read.problem);
  }
  received.upload?.keep();
  const done = await deliverWithPod(ctx.db, ctx.clock, ctx.caller, freight, read.input);
  if (done.kind === 'not_found') return notFound();
  if (done.kind === 'refused') return fail(ctx.t, done.reason);
  return ok({
    document: DOCUMENT.present(done.document, ctx),
    freight: { id: freight.id, status: 'closed', delivery_status: DELIVERY.delivered },
  });
}

/** The page's proof of delivery goes back to the documents, with the outcome as the flash. */
const backFromPod = backTo('documents', 'deal.pod.done');

/**
 * The deal room's JSON endpoints and their pages; `amended`: what modules above do when the
 * carrier's plate and driver re-issue the transport order (app.ts passes the e-CMR's).
 */
export function dealEndpoints(amended: readonly OrderFollower[] = []): Endpoint[] {
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
        return found
          ? ok({
              order: found.order,
              document: DOCUMENT.present(found.document, ctx),
              version: found.version,
              versions: found.versions.map((v) => ({ version: v.version, document: DOCUMENT.present(v.document, ctx) })),
            })
          : notFound();
      },
      page: (_outcome, ctx) => ({ redirect: freightPage(readId(ctx.path.freightId)!, 'documents') }),
    }),
    userEndpoint({
      method: 'POST',
      path: '/freights/order-transport/:freightId',
      doc: DEAL_DOCS.transport,
      async handle(ctx) {
        const freightId = readId(ctx.path.freightId);
        if (freightId === undefined) return notFound();
        const read = readTransport(ctx.params);
        if (!read.ok) {
          const vars = { max: TRANSPORT_LIMITS[read.field === 'plate' ? 'plate' : read.field === 'driver' ? 'driver' : 'phone'] };
          return fail(ctx.t, read.problem, vars, { errors: [{ field: read.field, reason: ctx.t(read.problem, vars) }] });
        }
        const given = await giveTransport(ctx.db, ctx.clock, ctx.caller, freightId, read.transport, amended);
        if (given.kind === 'not_found') return notFound();
        if (given.kind === 'refused') return fail(ctx.t, given.reason);
        return ok({ order: given.order, document: DOCUMENT.present(given.document, ctx), version: given.order.version ?? 2 });
      },
      page: (outcome, ctx) => {
        const id = readId(ctx.path.freightId);
        const to = id === undefined ? '/messages/unread' : `/freights/view/${id}#order-transport`;
        return outcome.kind === 'ok'
          ? { redirect: to, ok: true, message: ctx.t('deal.order.transport_done', { version: outcome.data.version }) }
          : { redirect: to, ok: false, message: outcome.message };
      },
    }),
  ];
}

/** The freight an upload was admitted to (EndpointSpec.admit), found before its body was read. */
const FREIGHT = Symbol('deals.freight');
/** The bytes the JSON body's `content` brought, decoded as they arrived (the scope's JSON reader). */
const STREAMED = Symbol('deals.streamed');
/** The upload under way, removed when the request ends without its document (onResponse). */
const UPLOADING = Symbol('deals.uploading');
/** The page's file part, its fields read before it (the scope's preValidation), and the parts after it. */
const FILE = Symbol('deals.file');
interface FilePart {
  part: MultipartFile;
  rest: AsyncIterator<Multipart>;
  read: boolean;
}
type UploadRequest = FastifyRequest & {
  [FREIGHT]?: FreightRow;
  [STREAMED]?: UploadResult;
  [UPLOADING]?: DocumentUpload;
  [FILE]?: FilePart;
};

/** Admits an upload of a party of the freight (owner, winner) before its body is read; anyone else: 404. */
async function admitParty(ctx: Ctx<Caller>): Promise<Outcome<never> | undefined> {
  const freightId = readId(ctx.path.freightId);
  const freight = freightId === undefined ? undefined : await documentFreight(ctx.db, ctx.clock, ctx.caller.companyId, freightId);
  if (!freight) return notFound();
  (ctx.req as UploadRequest)[FREIGHT] = freight;
  return undefined;
}

const admittedFreight = (ctx: Ctx<Caller>): FreightRow => (ctx.req as UploadRequest)[FREIGHT]!;

function newUpload(ctx: Ctx<Caller> | { services: Services; req: FastifyRequest }): DocumentUpload {
  const upload = new DocumentUpload(ctx.services.db, ctx.services.clock.now());
  (ctx.req as UploadRequest)[UPLOADING] = upload;
  return upload;
}

/**
 * The document's bytes as the request brought them: the JSON body's `content`, read as it
 * arrived; the page's file, read here part by part; or a short form's `content` (the kernel's
 * form parser, at most 1 MiB), decoded in slices the same way. Anything else has no content.
 */
async function received(ctx: Ctx<Caller>): Promise<Received> {
  const req = ctx.req as UploadRequest;
  const streamed = req[STREAMED];
  if (streamed) return { result: streamed, upload: req[UPLOADING] };
  const file = req[FILE];
  if (file) return receiveFile(ctx, file);
  const content = ctx.params.content;
  if (typeof content !== 'string') return { result: { ok: false, problem: 'documents.content_invalid' } };
  const upload = newUpload(ctx);
  const reader = new Base64Reader(upload);
  const pace = pacer();
  for (let at = 0; at < content.length; at += 64 * 1024) {
    await reader.write(content.slice(at, at + 64 * 1024));
    await pace();
  }
  await reader.end();
  return { result: await upload.finish(), upload };
}

/** The page's file, into parts as it arrives; then the parts after it (a second file is refused: 413). */
async function receiveFile(ctx: Ctx<Caller>, file: FilePart): Promise<Received> {
  const upload = newUpload(ctx);
  file.read = true;
  try {
    for await (const chunk of file.part.file) await upload.write(chunk as Buffer);
    if (file.part.file.truncated) await upload.refuse('documents.too_large');
    for (let next = await file.rest.next(); !next.done; next = await file.rest.next())
      if (next.value.type === 'file') await drainFile(next.value);
  } catch (err) {
    await upload.discard();
    throw bodyError(err);
  }
  return { result: await upload.finish(), upload, fileName: file.part.filename };
}

/** A file part nobody reads is read to its end, so that the request ends. */
async function drainFile(part: MultipartFile): Promise<void> {
  part.file.resume();
  if (!part.file.readableEnded) await new Promise((resolve) => part.file.once('end', resolve).once('close', resolve));
}

/** What is left of a page's upload after an answer that did not read it (a refused CSRF token): read and dropped. */
async function drainParts(file: FilePart): Promise<void> {
  if (file.read) return;
  file.read = true;
  await drainFile(file.part);
  for (let next = await file.rest.next(); !next.done; next = await file.rest.next())
    if (next.value.type === 'file') await drainFile(next.value);
}

/** A body that cannot be read (cut off, a broken part) is the sender's fault: 400, unless it says its own 4xx (413). */
function bodyError(err: unknown): unknown {
  const e = err as FastifyError;
  if (e && typeof e === 'object' && !(e.statusCode && e.statusCode >= 400 && e.statusCode < 500)) e.statusCode = 400;
  return e;
}

/** JSON: attach a document (`kind`, `name`, `content` base64). */
const addEndpoint = userEndpoint({
  method: 'POST',
  path: '/freights/documents/:freightId',
  doc: DEAL_DOCS.add,
  admit: admitParty,
  async handle(ctx) {
    return attach(ctx, await received(ctx));
  },
  page: backTo('documents', 'deal.documents.uploaded'),
});

/** JSON: the proof of delivery (`name`, `content` base64), marking the freight delivered. */
const podEndpoint = userEndpoint({
  method: 'POST',
  path: '/freights/pod/:freightId',
  doc: DEAL_DOCS.pod,
  admit: admitParty,
  async handle(ctx) {
    return deliver(ctx, await received(ctx));
  },
  page: backFromPod,
});

/** The page's upload form (multipart): the same rules as the JSON upload, the file instead of base64. */
const uploadEndpoint = userEndpoint({
  method: 'POST',
  path: '/freights/upload/:freightId',
  json: false,
  admit: admitParty,
  async handle(ctx) {
    return attach(ctx, await received(ctx));
  },
  page: backTo('documents', 'deal.documents.uploaded'),
});

/** The page's proof of delivery (multipart): the POD's file, and the freight marked delivered. */
const podUploadEndpoint = userEndpoint({
  method: 'POST',
  path: '/freights/pod-upload/:freightId',
  json: false,
  admit: admitParty,
  async handle(ctx) {
    return deliver(ctx, await received(ctx));
  },
  page: backFromPod,
});

/**
 * The uploads, in a scope of their own (docs/choices.md, "Deal room"): the caller is
 * authenticated and found to be a party before the body is read (admit); a JSON body is read
 * as it arrives, its `content` decoded into parts as it comes (kernel/json-stream.ts,
 * Base64Reader, DocumentUpload), never held whole nor cleaned as text; a multipart body is read
 * up to its file (the fields before it: the CSRF token, the kind), the token checked, then the
 * file streamed into parts by the handler. No other route reads multipart or streams JSON. And
 * the download, which streams the parts.
 */
export async function registerDealRoutes(http: FastifyInstance, services: Services): Promise<Endpoint[]> {
  const uploads = [addEndpoint, podEndpoint, uploadEndpoint, podUploadEndpoint];
  await http.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', async (req: FastifyRequest, payload: NodeJS.ReadableStream) => {
      const upload = newUpload({ services, req });
      const reader = new Base64Reader(upload);
      try {
        const read = await readStreamedJson(payload as AsyncIterable<Buffer>, req.headers['content-length'], {
          field: 'content',
          onText: (text) => reader.write(text),
          limit: UPLOAD_BODY_LIMIT,
          otherChars: OTHER_FIELDS_CHARS,
        });
        if (read.streamed) {
          await reader.end();
          (req as UploadRequest)[STREAMED] = await upload.finish();
        }
        return read.body;
      } catch (err) {
        await upload.discard();
        throw err;
      }
    });
    await scope.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: MAX_DOCUMENT_BYTES, files: 1, fields: 5, fieldSize: 4096, parts: 6 },
    });
    // The page's form: its fields up to the file (the CSRF token, the kind), for the kernel's
    // CSRF check (preHandler) before a byte of the file is read; the file is the handler's.
    const pages = new Set([uploadEndpoint.spec.path, podUploadEndpoint.spec.path]);
    scope.addHook('preValidation', async (req) => {
      // Only the page's two forms read multipart; the JSON routes leave such a body unread.
      if (!req.isMultipart() || !pages.has(req.routeOptions.url ?? '')) return;
      const fields: Record<string, unknown> = {};
      const parts = req.parts()[Symbol.asyncIterator]();
      try {
        for (let next = await parts.next(); !next.done; next = await parts.next()) {
          const part = next.value;
          if (part.type === 'file') {
            (req as UploadRequest)[FILE] = { part, rest: parts, read: false };
            break;
          }
          fields[part.fieldname] = part.value;
        }
      } catch (err) {
        throw bodyError(err);
      }
      req.body = fields;
    });
    // An upload that ended without its document (an error, a refused token): its parts go, and
    // a file nobody read is read to its end so that the connection can serve the next request.
    scope.addHook('onResponse', async (req) => {
      const r = req as UploadRequest;
      await r[UPLOADING]?.discard();
      const file = r[FILE];
      if (file) await drainParts(file).catch(() => {});
    });
    registerEndpoints(scope, services, uploads);
  });
  http.get(
    `${DOCUMENT_DOWNLOAD}/:id`,
    {
      // Already compressed (PDF, JPEG, PNG), and streamed with its length.
      compress: false,
      config: {
        openapi: {
          auth: 'user',
          doc: DEAL_DOCS.download,
          // What the first bytes were recognised as (deals/content.ts): the download's Content-Type.
          mediaType: DOCUMENT_MEDIA_TYPES,
          error: Type.Ref('ErrorEnvelope'),
          errorType: 'application/json',
        },
      },
    },
    (req, reply) => download(services, req, reply),
  );
  return uploads;
}

/** Where a document is downloaded (`/freights/document/{id}`): its failures are the JSON envelope (app.ts jsonFailures). */
export const DOCUMENT_DOWNLOAD = '/freights/document';

/** GET /freights/document/{id}: the exact bytes, part by part, never rendered by the browser (attachment, nosniff). */
async function download(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const caller = await callerOfRequest(services, req);
  if (!caller) return renderJson(reply, rejected(401, 'auth.unauthorized', translator('eng')('error.unauthorized')), null);
  const id = readId((req.params as { id?: string }).id);
  const found = id === undefined ? undefined : await downloadDocument(services.db, services.clock, caller.companyId, id);
  if (!found) return renderJson(reply, notFound(), caller);
  return reply
    .code(200)
    .header('content-type', found.document.media_type)
    .header('content-length', String(found.document.size))
    .header('content-disposition', attachment(downloadName(found.document.name, found.document.media_type)))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(Readable.from(found.bytes));
}
