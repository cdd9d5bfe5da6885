// Shipment, milk-run, TMS and case lists page exactly like the freight lists: one reader.
export { offsetOf, readPaging, type Paging } from '../freights/lists.ts';
