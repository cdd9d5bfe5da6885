import type { TSchema } from '@sinclair/typebox';
import type { Paging } from '../kernel/paging.ts';
import type { LoadSearch } from '../market/index.ts';
import type { Language } from '../kernel/i18n.ts';
import { type FreightPresentations, LIST, listFreights, listFreightsJson, presentMany, type ReadContext } from '../freights/index.ts';

/**
 * GET /freights/enlist/{filterId}: a freight list (the freights module's list statements,
 * freights/lists/read.ts), or a list of another module served there.
 */

/**
 * A list of another module served on GET /freights/enlist (TMS 51-53, docs/reference.md#preview): app.ts
 * passes them to freightEndpoints (the freights' HTTP face imports no module above it).
 */
export interface ExternalList {
  read(rc: ReadContext, page: Paging): Promise<unknown[]>;
  /** The JSON Schema of its rows, for the API description (a Shipment, a Tour). */
  items: TSchema;
}

/** The list of a filter id, or undefined for an unknown id. */
export async function enlist(
  rc: ReadContext,
  filterId: number,
  paging: Paging,
  search: LoadSearch | undefined,
  otherLists: ReadonlyMap<number, ExternalList>,
): Promise<unknown[] | undefined> {
  const external = otherLists.get(filterId);
  if (external) return external.read(rc, paging);
  const items = await listFreights(rc, filterId, paging, { withPieces: true, search });
  return (
    items &&
    presentMany(
      items.map((i) => ({ ...i, pieces: i.pieces ?? [] })),
      rc,
    )
  );
}

/**
 * The list of a filter id as the JSON text of its rows (freights/lists/read.ts listFreightsJson:
 * rows from their stored presentations where they serve), or undefined for an unknown id.
 */
export async function enlistJson(
  rc: ReadContext,
  language: Language,
  filterId: number,
  paging: Paging,
  search: LoadSearch | undefined,
  otherLists: ReadonlyMap<number, ExternalList>,
  presentations: FreightPresentations | undefined,
): Promise<string | undefined> {
  const external = otherLists.get(filterId);
  if (external) return JSON.stringify(await external.read(rc, paging));
  return listFreightsJson(rc, language, filterId, paging, { search }, presentations);
}

/**
 * GET /freights/hidden: the market's loads the caller hides (list 8's hidden view,
 * freights/lists/read.ts), presented as list 8 presents them.
 */
export async function hiddenLoads(rc: ReadContext, paging: Paging): Promise<unknown[]> {
  const items = await listFreights(rc, LIST.market, paging, { withPieces: true, view: 'hidden' });
  return presentMany(
    (items ?? []).map((i) => ({ ...i, pieces: i.pieces ?? [] })),
    rc,
  );
}
