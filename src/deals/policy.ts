import type { FreightRow, Role } from '../freights/index.ts';

/**
 * Who may do what in a freight's deal room (docs/reference.md#deal-room), once. Seeing the freight (the
 * freights module's policy, a role) opens its conversation with the owner; the documents are
 * the two parties' alone: the owner, and the winner once there is one.
 */

/** A company's place in a freight's deal room, from its role on the freight. */
export type DealSide = 'owner' | 'partner';

export const sideOf = (role: Role): DealSide => (role === 'owner' ? 'owner' : 'partner');

/** The conversation a non-owner company has: the one named by itself. The owner has all of them. */
export const ownConversation = (side: DealSide, companyId: number): number | undefined => (side === 'owner' ? undefined : companyId);

/** The owner and the winner (none before the award) see, add and download documents. */
export function isDocumentParty(row: Pick<FreightRow, 'company_id' | 'winner_id'>, companyId: number): boolean {
  return row.company_id === companyId || (row.winner_id !== null && row.winner_id === companyId);
}

/** The company a document's event goes to: the party that did not add it (both for the exchange's order). */
export function otherParties(row: Pick<FreightRow, 'company_id' | 'winner_id'>, uploader: number | null): number[] {
  const parties = [...new Set([row.company_id, ...(row.winner_id === null ? [] : [row.winner_id])])];
  return parties.filter((c) => c !== uploader);
}
