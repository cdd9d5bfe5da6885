/**
 * The electronic consignment note, e-CMR (decisions.md §19): notes and their append-only
 * signature entries with a hash chain, issued on the award of a road freight from its transport
 * order (deals), signed at loading by the sender and the carrier and at delivery by the consignee
 * through a link, verified by anyone holding a copy. Above deals (the order it is filled from,
 * the documents its PDFs join) and freights (the delivery its consignee's signature records). The
 * module's public surface.
 */
export { CMR_ERRORS, CMR_MESSAGES } from './messages.ts';
export { CMR_EVENT_DOCS } from './schema.ts';
export { cmrEndpoints, consigneeEndpoints } from './routes.tsx';
export { issueCmr } from './cmr.ts';
