/**
 * The deal room (docs/reference.md#deal-room): the conversation beside a freight between its owner and each
 * company that may see it, and the two parties' documents, with the transport order the exchange
 * adds on award. Above freights (who sees a freight is the freights module's policy, read through
 * its public surface); the award path (freights/award.ts) runs `issueTransportOrder`, a step
 * app.ts registers with what follows the order it issues (the e-CMR). The module's public surface.
 */
import { companyRefs } from '../accounts/index.ts';
import type { FreightView } from '../freights/index.ts';
import type { Caller, Ctx } from '../kernel/context.ts';
import type { TransportOrder } from './order.ts';
import { conversationsSeen, documentsSeen, seenBy } from './room.ts';
import { orderOf } from './store.ts';
import { dealRoomSection } from './views.tsx';

export { DEAL_ERRORS, DEAL_MESSAGES } from './messages.ts';
export { DOCUMENT_DOWNLOAD, dealEndpoints, registerDealRoutes } from './routes.tsx';
export { DEAL_EVENT_DOCS } from './schema.ts';
export { addIssuedDocument, issueTransportOrder, type OrderFollower } from './room.ts';
export { drawRows, openPdf, type Row, type RowLayout } from './pdf.ts';
export type { DocumentRead } from './store.ts';
export type { OrderItem, OrderParty, OrderPlace, TransportOrder } from './order.ts';
export { DOCUMENT, type DocumentView } from './schema.ts';
export { attachUploadSweeper } from './sweep.ts';

/** The menu's link to the unread messages (the header shows their count). */
export const MESSAGES_PATH = '/messages/unread';

/**
 * The freight page's "Messages" and "Documents" (the freight page's sections, passed in by
 * app.ts): the caller's conversations, read (so marked read) as the page shows them, and the
 * documents for the owner and the winner.
 */
export async function dealRoom(ctx: Ctx, route: FreightView) {
  if (!ctx.caller) return undefined;
  const caller = ctx.caller as Caller;
  const seen = await seenBy(ctx.db, ctx.clock, caller.companyId, route.id);
  if (!seen) return undefined;
  const owner = seen.row.company_id === caller.companyId;
  const winnerId = seen.row.winner_id;
  // Visibility is read once for both parts.
  const conversations = await conversationsSeen(ctx.db, ctx.clock, caller.companyId, seen);
  const documents = await documentsSeen(ctx.db, caller.companyId, seen);
  // The transport order's latest version and its PDF (with the SHA-256 the page shows), for the parties; the earlier versions' PDFs.
  const latest = documents ? await orderOf(ctx.db, route.id) : undefined;
  const order = latest && {
    order: JSON.parse(latest.content) as TransportOrder,
    version: latest.version,
    document: latest.document,
    earlier: (documents ?? [])
      .filter((d) => d.kind === 'order' && d.id !== latest.document.id)
      .reverse()
      .map((document, i) => ({ version: latest.version - 1 - i, document })),
  };
  const winner =
    owner && winnerId !== null && winnerId !== caller.companyId
      ? ((await companyRefs(ctx.db, [winnerId])).get(winnerId) ?? { id: winnerId, name: '', verified: false })
      : null;
  return dealRoomSection(ctx as Ctx<Caller>, {
    freightId: route.id,
    owner,
    winner,
    conversations,
    documents,
    awarded: winnerId !== null,
    order,
    givesTransport: !!order && seen.row.status === 'taken' && winnerId === caller.companyId,
    // The proof of delivery is the winner's next step while the freight is taken; the owner waits for it.
    podStep: seen.row.status === 'taken' ? (winnerId === caller.companyId ? 'upload' : 'waiting') : null,
  });
}
