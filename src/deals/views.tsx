import { CompanyName, companyRef, type CompanyRef } from '../accounts/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import { CsrfField, type Page } from '../kernel/html.tsx';
import { formatNumber, formatStamp } from '../kernel/locale.ts';
import { DataTable, Field } from '../kernel/ui.tsx';
import { orderDisplayId, TRANSPORT_LIMITS, type TransportOrder } from './order.ts';
import type { Conversation } from './room.ts';
import type { DocumentRead } from './store.ts';
import { MAX_DOCUMENT_MB, TEXT_MAX, UPLOAD_KINDS, type DocumentKind } from './tables.ts';

/**
 * The deal room on the freight page (its "Messages" and "Documents" sections, passed in by
 * app.ts) and the unread messages' page. The same data the JSON answers carry; the forms post
 * to the same endpoints (the file through the page's multipart upload).
 */

/** What the freight page's deal room shows the caller: its conversations, and the documents for a party. */
export interface DealRoomData {
  freightId: number;
  owner: boolean;
  /** the winner, when there is one the owner may write to (no conversation yet) */
  winner: CompanyRef | null;
  conversations: Conversation[];
  /** undefined: the caller is not a party of the documents */
  documents: DocumentRead[] | undefined;
  awarded: boolean;
  /** the transport order once issued: its latest version's content and PDF, the earlier versions' PDFs (newest first) */
  order: OrderShown | undefined;
  /** the caller is the winner of a taken freight: it gives the vehicle and driver (a new version of the order) */
  givesTransport: boolean;
  /** taken: the winner's next step (upload), or what the owner waits for; null otherwise */
  podStep: 'upload' | 'waiting' | null;
}

/** The transport order as the deal room shows it. */
export interface OrderShown {
  order: TransportOrder;
  version: number;
  document: DocumentRead;
  earlier: Array<{ version: number; document: DocumentRead }>;
}

const kindLabel = (ctx: Ctx, kind: DocumentKind) => ctx.t(`deal.kind.${kind}`);

/** 1.2 MB, 830 kB, 16 B (SI, as the 10 MB bound is read; the reader's decimal separator). */
function size(ctx: Ctx, bytes: number): string {
  const nf = (n: number) => formatNumber(n, ctx.language, 1);
  if (bytes >= 1_000_000) return `${nf(bytes / 1_000_000)} MB`;
  return bytes >= 1000 ? `${nf(bytes / 1000)} kB` : `${bytes} B`;
}

/** A moment as the pages show it: in APP_TIMEZONE, in the reader's order (26.11.2026 08:00). */
const when = (ctx: Ctx, at: Date) => formatStamp(ctx.clock.format(at), ctx.language);

function ConversationView({ ctx, data, c, csrf }: { ctx: Ctx<Caller>; data: DealRoomData; c: Conversation; csrf: string }) {
  const t = ctx.t;
  const me = ctx.caller.companyId;
  const formId = `deal-text-${c.company.id}`;
  return (
    // With the page's script (public/app.js) the form is sent as JSON without a reload and its
    // answer added to the list; the list is a live part, read again when a message arrives.
    <article class="conversation" data-testid="conversation" data-company={c.company.id} data-you={t('deal.messages.you')}>
      {data.owner && (
        <h3>
          {t('deal.messages.with')} <CompanyName company={c.company} t={t} />
        </h3>
      )}
      <div class="message-list" data-live-part={`messages-${c.company.id}`}>
        {c.messages.length ? (
          <ol class="messages">
            {c.messages.map((m) => (
              <li class={m.from_company_id === me ? 'message mine' : 'message theirs'} data-testid="message">
                <p class="meta">
                  <strong>
                    {m.from_company_id === me ? (
                      t('deal.messages.you')
                    ) : (
                      <CompanyName company={companyRef(m.from_company_id, m.from_name, m.from_verified)} t={t} />
                    )}
                  </strong>{' '}
                  <time dateTime={m.created.toISOString()}>{when(ctx, m.created)}</time>
                  {m.to_company_id === me && m.read_at === null && <span class="badge new">{t('deal.messages.new')}</span>}
                </p>
                <p class="text">{m.text}</p>
              </li>
            ))}
          </ol>
        ) : (
          <p class="muted">{t('deal.messages.none')}</p>
        )}
      </div>
      <form
        method="post"
        action={`/freights/messages/${data.freightId}`}
        class="message-form"
        data-message-form
        data-lang={ctx.language}
        data-sent={t('deal.messages.sent')}
      >
        <CsrfField token={csrf} />
        {data.owner && <input type="hidden" name="company" value={String(c.company.id)} />}
        <Field id={formId} label={t('deal.messages.text')}>
          <textarea id={formId} name="text" rows={3} maxLength={TEXT_MAX} required />
        </Field>
        <button type="submit">{t('deal.messages.send')}</button>
      </form>
    </article>
  );
}

/**
 * The transport order: its latest version's PDF, its JSON, and the PDF's SHA-256 that either side
 * can show; the vehicle and driver (or that the carrier has not given them), the earlier versions,
 * and for the carrier the form that gives them, issuing the order again.
 */
function OrderPanel({
  ctx,
  freightId,
  shown,
  form,
  csrf,
}: {
  ctx: Ctx;
  freightId: number;
  shown: OrderShown;
  form: boolean;
  csrf: string;
}) {
  const t = ctx.t;
  const { order, document } = shown;
  const transport = order.transport ?? null;
  return (
    <div class="order-panel" data-testid="transport-order" data-version={shown.version}>
      <h3>
        {t('deal.order')} {orderDisplayId(order)}
      </h3>
      <p class="muted">{t('deal.order.lead', { issued: formatStamp(order.issued, ctx.language) })}</p>
      {shown.version > 1 && (
        <p data-testid="order-version">{t('deal.order.version', { version: shown.version, issued: when(ctx, document.created) })}</p>
      )}
      <p data-testid="order-vehicle">
        {transport
          ? t('deal.order.vehicle', {
              plate: transport.used_transport_means.id,
              driver: [transport.driver.name, transport.driver.telephone].filter(Boolean).join(', '),
            })
          : t('deal.order.vehicle_none')}
      </p>
      <p class="actions">
        <a class="button" href={`/freights/document/${document.id}`} download={document.name} data-testid="order-pdf">
          {t('deal.order.pdf')}
        </a>{' '}
        <a class="button secondary" href={`/freights/order/${freightId}.json`} data-testid="order-json">
          {t('deal.order.json')}
        </a>
      </p>
      <p class="sha256">
        <span>{t('deal.order.sha256')}:</span> <code data-testid="order-sha256">{document.sha256}</code>
      </p>
      {shown.earlier.length > 0 && (
        <details data-testid="order-earlier">
          <summary>{t('deal.order.earlier')}</summary>
          <ul>
            {shown.earlier.map((v) => (
              <li>
                <a href={`/freights/document/${v.document.id}`} download={v.document.name}>
                  {t('deal.order.version', { version: v.version, issued: when(ctx, v.document.created) })}
                </a>
              </li>
            ))}
          </ul>
        </details>
      )}
      {form && (
        <form method="post" action={`/freights/order-transport/${freightId}`} id="order-transport" data-testid="order-transport">
          <h4>{t('deal.order.transport')}</h4>
          <p class="muted">{t('deal.order.transport_lead')}</p>
          <CsrfField token={csrf} />
          <Field id="order-plate" label={t('deal.order.plate')}>
            <input
              id="order-plate"
              name="plate"
              required
              minLength={2}
              maxLength={TRANSPORT_LIMITS.plate}
              autocomplete="off"
              autocapitalize="characters"
              value={transport?.used_transport_means.id ?? ''}
            />
          </Field>
          <Field id="order-driver" label={t('deal.order.driver')}>
            <input id="order-driver" name="driver" required maxLength={TRANSPORT_LIMITS.driver} value={transport?.driver.name ?? ''} />
          </Field>
          <Field id="order-driver-phone" label={t('deal.order.driver_phone')}>
            <input
              id="order-driver-phone"
              name="driver_phone"
              type="tel"
              maxLength={TRANSPORT_LIMITS.phone}
              value={transport?.driver.telephone ?? ''}
            />
          </Field>
          <button type="submit">{t('deal.order.transport_submit')}</button>
        </form>
      )}
    </div>
  );
}

/** The winner's next step once the freight is taken: the proof of delivery, which marks it delivered. */
function PodStep({ ctx, freightId, csrf }: { ctx: Ctx; freightId: number; csrf: string }) {
  const t = ctx.t;
  return (
    <form
      method="post"
      action={`/freights/pod-upload/${freightId}`}
      enctype="multipart/form-data"
      class="pod-step next-step"
      data-testid="pod-step"
    >
      <h3>{t('deal.pod')}</h3>
      <p class="muted">{t('deal.pod.lead')}</p>
      <CsrfField token={csrf} />
      <Field id="deal-pod-file" label={t('deal.pod.file', { max: MAX_DOCUMENT_MB })}>
        <input id="deal-pod-file" type="file" name="file" accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png" required />
      </Field>
      <button type="submit">{t('deal.pod.submit')}</button>
    </form>
  );
}

export function dealRoomSection(ctx: Ctx<Caller>, data: DealRoomData) {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  const conversations = [...data.conversations];
  // The owner may open the conversation with its carrier; anyone else always has its own.
  if (data.owner && data.winner && !conversations.some((c) => c.company.id === data.winner!.id))
    conversations.push({ company: data.winner, messages: [] });
  if (!data.owner && !conversations.length)
    // Its own conversation, before the first message (its heading is the owner's only: the mark is not shown).
    conversations.push({ company: { id: ctx.caller.companyId, name: ctx.caller.companyName, verified: false }, messages: [] });
  return (
    <>
      <section class="panel deal-room" id="messages" data-testid="deal-messages">
        <h2>{t('deal.messages')}</h2>
        {conversations.length ? (
          conversations.map((c) => <ConversationView ctx={ctx} data={data} c={c} csrf={csrf} />)
        ) : (
          <p class="muted" data-no-conversation>
            {t('deal.messages.nobody')}
          </p>
        )}
      </section>
      {data.documents && (
        <section class="panel deal-room" id="documents" data-testid="deal-documents">
          <h2>{t('deal.documents')}</h2>
          {!data.awarded && <p class="muted">{t('deal.documents.after_award')}</p>}
          {data.podStep === 'upload' && <PodStep ctx={ctx} freightId={data.freightId} csrf={csrf} />}
          {data.podStep === 'waiting' && (
            <p class="muted" data-testid="pod-waiting">
              {t('deal.pod.waiting')}
            </p>
          )}
          {data.order && <OrderPanel ctx={ctx} freightId={data.freightId} shown={data.order} form={data.givesTransport} csrf={csrf} />}
          <div data-live-part="documents">
            <DataTable
              caption={t('deal.documents')}
              rows={data.documents}
              empty={t('deal.documents.none')}
              testId="documents"
              columns={[
                {
                  label: t('deal.documents.name'),
                  lead: true,
                  wrap: true,
                  cell: (d) => (
                    <a href={`/freights/document/${d.id}`} download={d.name}>
                      {d.name}
                    </a>
                  ),
                },
                { label: t('deal.documents.kind'), cell: (d) => kindLabel(ctx, d.kind) },
                { label: t('deal.documents.size'), numeric: true, cell: (d) => size(ctx, d.size) },
                {
                  label: t('deal.documents.by'),
                  wrap: true,
                  cell: (d) =>
                    d.company_id === null ? (
                      t('deal.documents.exchange')
                    ) : (
                      <CompanyName company={companyRef(d.company_id, d.company_name ?? '', d.company_verified)} t={t} />
                    ),
                },
                { label: t('deal.documents.added'), cell: (d) => when(ctx, d.created) },
              ]}
            />
          </div>
          <form method="post" action={`/freights/upload/${data.freightId}`} enctype="multipart/form-data" class="upload-form">
            <CsrfField token={csrf} />
            <Field id="deal-kind" label={t('deal.documents.kind')}>
              <select id="deal-kind" name="kind">
                {UPLOAD_KINDS.map((k) => (
                  <option value={k}>{kindLabel(ctx, k)}</option>
                ))}
              </select>
            </Field>
            <Field id="deal-file" label={t('deal.documents.file', { max: MAX_DOCUMENT_MB })}>
              <input id="deal-file" type="file" name="file" accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png" required />
            </Field>
            <button type="submit">{t('deal.documents.upload')}</button>
          </form>
        </section>
      )}
    </>
  );
}

/** GET /messages/unread: the freights with unread messages, each a link to its conversation. */
export function unreadPage(ctx: Ctx<Caller>, unread: { count: number; freights: Array<{ freight: number; count: number }> }): Page {
  const t = ctx.t;
  return {
    title: t('deal.unread.title'),
    body: (
      <section>
        <h1>{t('deal.unread.title')}</h1>
        <DataTable
          caption={t('deal.unread.title')}
          rows={unread.freights}
          empty={t('deal.unread.none')}
          testId="unread"
          skipTarget
          columns={[
            {
              label: t('order.freight'),
              lead: true,
              cell: (u) => <a href={`/freights/view/${u.freight}#messages`}>{t('deal.unread.freight', { freight: u.freight })}</a>,
            },
            { label: t('deal.messages'), numeric: true, cell: (u) => t('deal.unread.count', { count: u.count }) },
          ]}
        />
      </section>
    ),
  };
}
