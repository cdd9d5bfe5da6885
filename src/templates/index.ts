/**
 * Templates (docs/reference.md#freights): a company's saved freight fields, and freights created from them.
 * Above freights: a template is replayed through the freight field table into a new freight.
 * The module's public surface.
 */
export { TEMPLATES_SECTION, templateEndpoints } from './routes.ts';
export { TEMPLATE_ERRORS, TEMPLATE_MESSAGES } from './messages.ts';
