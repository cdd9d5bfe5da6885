import { addMessages } from '../kernel/i18n.ts';

/** Texts of the pricing module (eng, deu). */
addMessages('eng', {
  'pricing.search_id_required': 'search_id is required (the id of a stored search)',
  'pricing.query_short': 'The search text needs at least 2 characters',
  'pricing.type_unknown': 'Unknown location type "{type}": use airport or city',
  'pricing.rating_invalid': 'rating must be 0 (thumbs down) or 1 (thumbs up)',
  'pricing.rate_unknown': 'rate_id: no such rate visible to you',
  'pricing.rate_id_invalid': 'rate_id must be the id of a rate',
  'pricing.search_invalid': 'Rate search: {message}',
});
addMessages('deu', {
  'pricing.search_id_required': 'search_id fehlt (die Nummer einer gespeicherten Suche)',
  'pricing.query_short': 'Der Suchtext braucht mindestens 2 Zeichen',
  'pricing.type_unknown': 'Unbekannter Ortstyp „{type}“: airport oder city',
  'pricing.rating_invalid': 'rating muss 0 (Daumen runter) oder 1 (Daumen hoch) sein',
  'pricing.rate_unknown': 'rate_id: keine solche Rate für Sie sichtbar',
  'pricing.rate_id_invalid': 'rate_id muss die Nummer einer Rate sein',
  'pricing.search_invalid': 'Ratensuche: {message}',
});
