import { addMessages } from '../kernel/i18n.ts';

addMessages('eng', { 'shipments.unknown_list': 'filter {id}: no such list' });
addMessages('deu', { 'shipments.unknown_list': 'Filter {id}: keine solche Liste' });
