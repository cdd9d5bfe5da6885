/**
 * The freights module's public surface: what other modules (and the composition root) may use.
 * Freights, their piece lines and bids, who sees them (policy), their transitions (lifecycle),
 * their lists and counts, and the events of a freight's life. Everything else in this directory
 * is the module's own; the structure test refuses an import of it from outside.
 */

// Rows and statuses
export {
  BID_STATUSES,
  DELIVERY,
  DELIVERY_STATUSES,
  FREIGHT_STATUSES,
  VISIBILITY,
  type BidRow,
  type BidStatus,
  type DeliveryStatus,
  type FreightRow,
  type FreightStatus,
} from './tables.ts';

// Reading freights as a caller may see them
export {
  loadFreightForCaller,
  loadVisibleFreight,
  presentMany,
  presentRead,
  visibleFreights,
  visibleFreightsWithPieces,
  withPieces,
  type ReadContext,
} from './store.ts';
export { FreightPresentations, readViewAnswer } from './presented.ts';
export type { Role } from './policy.ts';
export { admits, admitsSql, audienceOf, hadBidSql, partiesOf, partyToAwbSql, type AwbFreight } from './policy.ts';

// The read model: other modules' statements over freights and bids start here (read-model.ts),
// with the rules above and below as their SQL pieces; no other module names the tables
export {
  BIDS,
  bidsWithAward,
  bidsWithFreights,
  completedSql,
  FREIGHTS,
  freightsWithBids,
  freightsWithWaterfalls,
  fromBids,
  fromFreights,
} from './read-model.ts';

// Bids as shown, and their state machine beside their table (the quotes module is its HTTP face)
export { BID, presentBid, type BidView } from './bids.ts';
export {
  confirmBid,
  revokeBid,
  submitBid,
  type BidInput,
  type ConfirmRefusal,
  type RevokeRefusal,
  type SubmitRefusal,
  type Transition,
} from './bidding.ts';
// The one award path: every way of winning; what else an award does is a step app.ts registers
export { AwardPath, type AwardInput, type AwardResult, type AwardStep, type WayOfWinning, type Won } from './award.ts';

// Transitions and events
export { admitToWhitelist, attachExpirySweeper, createFreight, lockFreight, lockFreights, setDeliveryStatus } from './lifecycle.ts';
export {
  AWARDED_STATUSES,
  BIDS_IN_PLAY,
  effectiveStatusSql,
  inMarket,
  inMarketSql,
  isDue,
  isMarketStatus,
  storedInSql,
} from './in-market.ts';
export type { AlongDelivery, EnteredMarket, TransitionResult } from './lifecycle.ts';
export { emitEvent } from './events.ts';
// Deals in one step (docs/reference.md#one-step): Book Now, automatic award, counter-offers, waterfalls
export {
  acceptCounter,
  autoAward,
  bidHistory,
  bookNow,
  counterBid,
  NO_COUNTER,
  recordOffer,
  type OneStepRefusal,
  type OneStepResult,
} from './one-step.ts';
export {
  declineTurn,
  MAX_WATERFALL_CARRIERS,
  MAX_WATERFALL_MINUTES,
  startWaterfall,
  type WaterfallInput,
  type WaterfallResult,
  type WaterfallWork,
} from './waterfall.ts';
export { attachWaterfallSweeper, sweepWaterfalls, WATERFALL_SWEEP_BATCH, waterfallQueueStats } from './waterfall-sweep.ts';
export type { WaterfallView } from './waterfall-view.ts';
export { WATERFALL_THEN, type WaterfallRow, type WaterfallThen } from './tables.ts';

// Lists, counts and the load search
export { listFreights, listFreightsJson, type MarketView } from './lists/read.ts';
export { hideFreight, markSeen, MAX_HIDDEN, seenAmong, unhideFreight, type HideResult } from './marks.ts';
export { countFreightLists, freightCountsQuery, type OtherListCounts } from './lists/counts.ts';
export {
  FREIGHT_LIST_IDS,
  FREIGHT_LISTS_NAMED,
  HOME_LIST,
  isFreightList,
  LIST,
  listPath,
  listRange,
  TMS_LIST_IDS,
  type ListId,
} from './lists/registry.ts';
export { freightDistanceSql, originDistanceSql, searchConditions } from './search.ts';
// Whose move a freight is (the lists, the freight page, and the desk's work queue)
export {
  bidderMustConfirm,
  isCallersMove,
  ownerMoveOf,
  placeGiven,
  publishGaps,
  type PublishGap,
} from './lists/moves.ts';

// The field table (the HTTP face reads a freight body by it, freights-http/parse.ts), and the freight as presented
export {
  BIDS_SHOWN_STATUSES,
  CLASSES,
  FIELDS,
  MAX_WHITELIST,
  PIECE_FIELDS,
  presentFreight,
  SHARE_KEYS,
  storableDate,
  TYPES,
  type DecimalSpec,
  type FieldDef,
  type FreightValues,
  type FreightView,
  type PieceValues,
  type PresentedPiece,
  type ShareKey,
} from './fields.ts';

// What the HTTP face (freights-http) calls: the transitions, creation, the lists as read
export {
  ARCHIVABLE_STATUSES,
  archiveFreight,
  editFreight,
  publishFreight,
  REVOCABLE_STATUSES,
  revokeFreight,
} from './lifecycle.ts';
export type { Creation } from './lifecycle.ts';
export { LISTS, listInfo, listsOfGroup, type ListSide } from './lists/registry.ts';
export type { Confirmations } from './lists/moves.ts';
export { isAwardedStatus, MARKET_STATUSES } from './in-market.ts';

// The companies a page offers to pick by name (the pages of several modules read it)
export { partnerCompanies } from './page-data.ts';
export { FREIGHT_ERRORS, FREIGHT_MESSAGES } from './texts.ts';
