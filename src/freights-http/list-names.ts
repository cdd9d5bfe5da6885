import { catalogue, type KeysOf, type MessageKey } from '../kernel/i18n.ts';
import { HOME_LIST, listInfo, listPath } from '../freights/index.ts';

/**
 * What the pages call the lists of GET /freights/enlist (freights/lists/registry.ts): each
 * list's name on its tab and as a page's title (the freight lists, the saved searches' page),
 * and the freights' place in the menu. The lists themselves, their ids and what each holds are
 * the core's registry; their names are the pages' words (app.ts installs them; kernel/i18n.ts).
 */
export const LIST_NAME_MESSAGES = catalogue(
  {
    'fv.f8': 'Open requests',
    'fv.f7': 'My bids',
    'fv.f6': 'Lost',
    'fv.f2': 'Won orders',
    'fv.f9': 'Archive',
    'fv.f20': 'Drafts',
    'fv.f10': 'Open tenders',
    'fv.f17': 'With bids',
    'fv.f18': 'Without bids',
    'fv.f12': 'Awarded',
    'fv.f19': 'Archive',
    'fv.f200': 'Outgoing',
    'fv.f201': 'Confirmed',
    'fv.f209': 'Archive',
    'fv.f210': 'Incoming',
    'fv.f211': 'Accepted',
    'fv.f219': 'Archive',
    'fv.f51': 'Not planned',
    'fv.f52': 'Planned',
    'fv.f53': 'Tours',
  },
  {
    'fv.f8': 'Offene Anfragen',
    'fv.f7': 'Meine Gebote',
    'fv.f6': 'Verloren',
    'fv.f2': 'Gewonnene Aufträge',
    'fv.f9': 'Archiv',
    'fv.f20': 'Entwürfe',
    'fv.f10': 'Offene Ausschreibungen',
    'fv.f17': 'Mit Geboten',
    'fv.f18': 'Ohne Gebote',
    'fv.f12': 'Vergeben',
    'fv.f19': 'Archiv',
    'fv.f200': 'Ausgehend',
    'fv.f201': 'Bestätigt',
    'fv.f209': 'Archiv',
    'fv.f210': 'Eingehend',
    'fv.f211': 'Angenommen',
    'fv.f219': 'Archiv',
    'fv.f51': 'Nicht geplant',
    'fv.f52': 'Geplant',
    'fv.f53': 'Touren',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof LIST_NAME_MESSAGES> {}
}

/** The label of a list's tab and title; a number that is no list reads as such. */
export const listLabel = (id: number): MessageKey => {
  const list = listInfo(id);
  return list ? `fv.f${list.id}` : 'freight.enlist.unknown_filter';
};

/** The freights' place in the menu: it opens on the own open tenders. */
export const FREIGHTS_SECTION = { prefix: '/freights', href: listPath(HOME_LIST), label: 'nav.freights' } as const;
