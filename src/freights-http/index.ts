/**
 * The freights' HTTP face, its public surface: the freight endpoints and pages, their forms, and
 * the freights' part of the API description. The rules, statements and transitions it calls are
 * the freights module's (src/freights, below it); the structure test refuses an import of any
 * other file of this directory from outside.
 */

// Endpoints and pages
export { freightEndpoints, freightPageFor, type FreightSections } from './routes.tsx';
export type { ExternalList } from './lists.ts';
export { CompanyPicker, readPickedCompanies } from './pages/company-picker.tsx';
// A freight's place as the lists name it (mail and the desk name freights as the lists do)
export { placeLabel } from './pages/freight-page.tsx';

// A freight body read, and the freight form (templates replay them)
export { parseFreight } from './parse.ts';
export { normaliseFreightForm, problemsFromWarnings, type FormState } from './pages/form-input.ts';
export { freightFields } from './pages/form-page.tsx';

// The API description of freights and their events
export { FREIGHT_EVENT_DOCS, FREIGHT_INPUT_SCHEMA, FREIGHT_SCHEMA } from './schema.ts';

// Texts, and the lists' names and the freights' place in the menu
export { FREIGHTS_SECTION, LIST_NAME_MESSAGES, listLabel } from './list-names.ts';
export { FREIGHT_PAGE_MESSAGES } from './messages.ts';
export { ONE_STEP_PAGE_MESSAGES } from './one-step-messages.ts';
export { LOAD_PAGE_MESSAGES } from './load-messages.ts';
