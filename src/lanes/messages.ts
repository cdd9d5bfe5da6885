import { errorCodes, type CodesOf } from '../kernel/errors.ts';
import { catalogue, type KeysOf } from '../kernel/i18n.ts';

/** The lane prices' texts in English and German (app.ts installs them; kernel/i18n.ts). */
export const LANE_MESSAGES = catalogue(
  {
    'prices.lane_required':
      'Name the lane: from and to, each a country (DE), a country with a postal prefix (DE-60) or an airport (airport:FRA).',
    'nav.prices': 'Market prices',
    'lp.title': 'Market prices',
    'lp.intro':
      'What transport on a lane really cost: the accepted prices of awarded road freights, by month. A month shows figures only from {awards} awards by {owners} different shippers on, and new awards join the figures in batches of at least {awards} awards by {owners} shippers, never one deal at a time.',
    'lp.intro.strict':
      'What transport on a lane really cost: the accepted prices of awarded road freights, by month. A month shows figures only from {awards} awards by {owners} different shippers on. Awards join the figures in batches, each at least {awards} awards by {owners} shippers in which any {coalition} companies together, shippers or carriers, took no part in at least {others}: never one deal at a time, and no company, nor {coalition} acting together, can place prices of their own around the others’ to read them.',
    'lp.warn.area': '{pattern} read as {area}: prices are kept per postal area.',
    'lp.warn.months': 'Months: a whole number from {min} to {max}. {months} shown.',
    'lp.warn.currency': 'Currency: a three-letter code such as EUR. {currency} shown.',
    'lp.field.from': 'From',
    'lp.field.to': 'To',
    'lp.field.places.hint': 'DE, DE-60 or airport:FRA; several comma-separated',
    'lp.field.months': 'Months',
    'lp.field.currency': 'Currency',
    'lp.show': 'Show prices',
    'lp.enter_lane': 'Enter a lane to see its prices.',
    'lp.chart.title': 'Median price per month, {from} to {to} ({currency})',
    'lp.chart.desc': 'Median with the middle half of the prices (25th to 75th percentile) for each month with enough awards.',
    'lp.axis.month': 'Month',
    'lp.axis.price': 'Price ({currency})',
    'lp.no_figures': 'No month of this window has enough awards to show figures.',
    'lp.col.month': 'Month',
    'lp.col.count': 'Awards',
    'lp.col.released': 'In the figures',
    'lp.col.median': 'Median',
    'lp.col.p25': '25th percentile',
    'lp.col.p75': '75th percentile',
    'lp.col.per_km': 'Median per road km (est.)',
    'lp.estimated': 'estimated',
    'lp.needed':
      'Awards on this lane this month: {count}. It needs at least {needed} more (by at least {owners} different shippers in all) before its figures show.',
    'lp.needed.one':
      'Awards on this lane this month: {count}. It needs at least 1 more award (by at least {owners} different shippers in all) before its figures show.',
    'lp.wider.title': 'The wider lane {from} → {to}',
    'lp.wider.intro':
      'Too few awards on {from} → {to} for figures: these are the figures of the country pair around it, as asking it directly shows them.',
    'lp.hidden': 'too few awards',
    'lp.legend.median': 'median',
    'lp.legend.range': '25th–75th percentile',
    'lp.hint': 'market: {price} median, {count} awards',
    'lp.hint.link': 'Prices on this lane',
  },
  {
    'prices.lane_required':
      'Bitte die Strecke angeben: von und nach, jeweils ein Land (DE), ein Land mit Postleitzahl-Anfang (DE-60) oder ein Flughafen (airport:FRA).',
    'nav.prices': 'Marktpreise',
    'lp.title': 'Marktpreise',
    'lp.intro':
      'Was Transporte auf einer Strecke wirklich gekostet haben: die angenommenen Preise vergebener Straßenfrachten, je Monat. Ein Monat zeigt Zahlen erst ab {awards} Vergaben von {owners} verschiedenen Auftraggebern, und neue Vergaben fließen gebündelt in die Zahlen ein, je mindestens {awards} Vergaben von {owners} Auftraggebern, nie ein einzelnes Geschäft.',
    'lp.intro.strict':
      'Was Transporte auf einer Strecke wirklich gekostet haben: die angenommenen Preise vergebener Straßenfrachten, je Monat. Ein Monat zeigt Zahlen erst ab {awards} Vergaben von {owners} verschiedenen Auftraggebern. Vergaben fließen gebündelt in die Zahlen ein, je mindestens {awards} Vergaben von {owners} Auftraggebern, an denen je {coalition} Unternehmen zusammen, Auftraggeber oder Frachtführer, bei mindestens {others} nicht beteiligt waren: nie ein einzelnes Geschäft, und kein Unternehmen, auch nicht {coalition} gemeinsam, kann eigene Preise so um die der anderen legen, dass es diese abliest.',
    'lp.warn.area': '{pattern} als {area} gelesen: Preise werden je Postleitgebiet geführt.',
    'lp.warn.months': 'Monate: eine ganze Zahl von {min} bis {max}. {months} gezeigt.',
    'lp.warn.currency': 'Währung: ein Code aus drei Buchstaben wie EUR. {currency} gezeigt.',
    'lp.field.from': 'Von',
    'lp.field.to': 'Nach',
    'lp.field.places.hint': 'DE, DE-60 oder airport:FRA; mehrere mit Komma getrennt',
    'lp.field.months': 'Monate',
    'lp.field.currency': 'Währung',
    'lp.show': 'Preise zeigen',
    'lp.enter_lane': 'Geben Sie eine Strecke ein, um ihre Preise zu sehen.',
    'lp.chart.title': 'Medianpreis je Monat, {from} nach {to} ({currency})',
    'lp.chart.desc': 'Median mit der mittleren Hälfte der Preise (25. bis 75. Perzentil) für jeden Monat mit genug Vergaben.',
    'lp.axis.month': 'Monat',
    'lp.axis.price': 'Preis ({currency})',
    'lp.no_figures': 'Kein Monat dieses Zeitraums hat genug Vergaben, um Zahlen zu zeigen.',
    'lp.col.month': 'Monat',
    'lp.col.count': 'Vergaben',
    'lp.col.released': 'In den Zahlen',
    'lp.col.median': 'Median',
    'lp.col.p25': '25. Perzentil',
    'lp.col.p75': '75. Perzentil',
    'lp.col.per_km': 'Median je Straßen-km (ca.)',
    'lp.estimated': 'geschätzt',
    'lp.needed':
      'Vergaben auf dieser Strecke diesen Monat: {count}. Sie braucht noch mindestens {needed} weitere (von insgesamt mindestens {owners} verschiedenen Verladern), bevor ihre Zahlen erscheinen.',
    'lp.needed.one':
      'Vergaben auf dieser Strecke diesen Monat: {count}. Sie braucht noch mindestens 1 weitere Vergabe (von insgesamt mindestens {owners} verschiedenen Verladern), bevor ihre Zahlen erscheinen.',
    'lp.wider.title': 'Die weitere Strecke {from} → {to}',
    'lp.wider.intro':
      'Zu wenige Vergaben auf {from} → {to} für Zahlen: Dies sind die Zahlen des Länderpaars darum, wie eine Abfrage dieser Strecke sie zeigt.',
    'lp.hidden': 'zu wenige Vergaben',
    'lp.legend.median': 'Median',
    'lp.legend.range': '25.–75. Perzentil',
    'lp.hint': 'Markt: {price} Median, {count} Vergaben',
    'lp.hint.link': 'Preise dieser Strecke',
  },
);

declare module '../kernel/i18n.ts' {
  interface MessageKeys extends KeysOf<typeof LANE_MESSAGES> {}
}

/** The codes of the lane prices' failures (kernel/errors.ts): code -> its English text. */
export const LANE_ERRORS = errorCodes(LANE_MESSAGES, ['prices.lane_required']);

declare module '../kernel/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof LANE_ERRORS> {}
}
