import { addMessages } from '../kernel/i18n.ts';

addMessages('eng', {
  'cases.name_required': 'name: a case name is required',
  'cases.name_too_long': 'name: at most {max} characters',
  'cases.route_required': 'route_id: the id of the shipment to link is required',
  'cases.route_not_found': 'route_id: shipment {id} not found',
});

addMessages('deu', {
  'cases.name_required': 'name: ein Fallname ist erforderlich',
  'cases.name_too_long': 'name: höchstens {max} Zeichen',
  'cases.route_required': 'route_id: die Id der zu verknüpfenden Sendung ist erforderlich',
  'cases.route_not_found': 'route_id: Sendung {id} nicht gefunden',
});
