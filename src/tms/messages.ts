import { addMessages } from '../kernel/i18n.ts';

addMessages('eng', {
  'tms.name_required': 'name: a tour name is required',
  'tms.name_too_long': 'name: at most {max} characters',
  'tms.date_invalid': 'date: "{value}" is not a date YYYY-MM-DD',
  'tms.route_ids_invalid': 'route_ids: "{value}" is not a freight id',
  'tms.too_many_routes': 'route_ids: at most {max} freights on one tour',
  'tms.not_won_orders': 'route_ids: {ids} not won orders of your company (winner, status taken)',
  'tms.on_other_tour': 'route_ids: {ids} already on another tour',
});

addMessages('deu', {
  'tms.name_required': 'name: ein Tourname ist erforderlich',
  'tms.name_too_long': 'name: höchstens {max} Zeichen',
  'tms.date_invalid': 'date: "{value}" ist kein Datum JJJJ-MM-TT',
  'tms.route_ids_invalid': 'route_ids: "{value}" ist keine Fracht-Id',
  'tms.too_many_routes': 'route_ids: höchstens {max} Frachten auf einer Tour',
  'tms.not_won_orders': 'route_ids: {ids} keine gewonnenen Aufträge Ihrer Firma (Gewinner, Status taken)',
  'tms.on_other_tour': 'route_ids: {ids} bereits auf einer anderen Tour',
});
