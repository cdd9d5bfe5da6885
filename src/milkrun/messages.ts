import { addMessages } from '../kernel/i18n.ts';

addMessages('eng', {
  'milkrun.unknown_list': 'filter {id}: not a milk-run list (70-75, 78, 80-84)',
  'milkrun.move_not_allowed': '{move}: not allowed for you while the shipment is {state}',
  'milkrun.carrier_required': 'carrier: the company id of the trucker is required to dispatch',
  'milkrun.carrier_unknown': 'carrier: no company {carrier}',
});

addMessages('deu', {
  'milkrun.unknown_list': 'Filter {id}: keine Milk-Run-Liste (70-75, 78, 80-84)',
  'milkrun.move_not_allowed': '{move}: für Sie nicht erlaubt, solange die Sendung {state} ist',
  'milkrun.carrier_required': 'carrier: die Firmen-Id des Fuhrunternehmers ist für dispatch erforderlich',
  'milkrun.carrier_unknown': 'carrier: keine Firma {carrier}',
});
