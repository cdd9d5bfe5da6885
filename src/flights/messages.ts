import { addMessages } from '../kernel/i18n.ts';

addMessages('eng', {
  'flight.invalid':
    'A flight needs from and to (known IATA codes), etd and eta (YYYY-MM-DD HH:MM) with eta after etd, and a flight number.',
});

addMessages('deu', {
  'flight.invalid':
    'Ein Flug braucht from und to (bekannte IATA-Codes), etd und eta (YYYY-MM-DD HH:MM) mit eta nach etd und eine Flugnummer.',
});
