// npm run bench:pdf — the transport order's PDF alone (src/deals/pdf.ts transportOrderPdf): CPU and wall time per
// document over N renderings (N=50 by default) of one order, and its SHA-256 (the same bytes every time).
import { createHash } from 'node:crypto';
import type { TransportOrder } from '../src/deals/order.ts';
import { transportOrderPdf } from '../src/deals/pdf.ts';
const party = (id: number, name: string) => ({
  id,
  name,
  postal_address: { postcode: '60311', city_name: 'Frankfurt', country_code: 'DE' },
  tax_registration: { id: 'DE123456789' },
  confirmed_by: null,
  confirmed: null,
  defined_trade_contact: { person_name: 'Bench User', telephone: '+49 69 123', email: 'bench@example.test' },
});
const o: TransportOrder = {
  format: 'freight-exchange/transport-order/3',
  freight: 123456,
  version: 1,
  version_issued: '2026-11-29 08:00:00',
  bid: 999,
  issued: '2026-11-29 08:00:00',
  timezone: 'Europe/Berlin',
  consignor: party(1, 'Bench 0'),
  consignee: null,
  consignee_receipt_location: {
    id: '75001',
    name: null,
    postal_address: { country_code: 'FR' },
    scheduled_occurrence_period: { start_date_time: null, end_date_time: null },
  },
  carrier_acceptance_location: {
    id: '60311',
    name: null,
    postal_address: { country_code: 'DE' },
    scheduled_occurrence_period: { start_date_time: null, end_date_time: null },
  },
  number_of_packages: null,
  nature_identification_cargo: null,
  gross_weight: 12000,
  included_consignment_item: [],
  dangerous_goods: null,
  carrier: party(2, 'Bench 7'),
  applicable_service_charge: { applied_amount: '1001.00', currency_id: 'EUR' },
  references: {},
  payment_terms: null,
  transport: null,
};
const json = JSON.stringify(o);
const created = new Date('2026-11-29T08:00:00Z');
const N = Number(process.env.N ?? 50);
let first = '';
for (let i = 0; i < 3; i++) await transportOrderPdf(o, json, created);
const t = performance.now();
const c0 = process.cpuUsage();
for (let i = 0; i < N; i++) {
  const b = await transportOrderPdf(o, json, created);
  const h = createHash('sha256').update(b).digest('hex');
  if (!first) first = h;
  else if (h !== first) console.log('NONDETERMINISTIC');
}
const cu = process.cpuUsage(c0);
console.log(
  `cpu ${((cu.user + cu.system) / 1000 / N).toFixed(2)} ms, wall ${((performance.now() - t) / N).toFixed(2)} ms per pdf, sha ${first.slice(0, 16)}`,
);
