// A full award through the client: node --import tsx clients/typescript/examples/award.ts
// (against a running server with the demo accounts: npx freight-exchange seed demo).
import { FreightExchange } from '../src/index.ts';

const baseUrl = process.env.FX_URL ?? 'http://127.0.0.1:8080';
const shipper = new FreightExchange({ baseUrl, userAgent: 'award-example / 1.0' });
const carrier = new FreightExchange({ baseUrl, userAgent: 'award-example / 1.0' });
await shipper.login('shipper@demo.example', 'shipper-demo');
await carrier.login('carrier@demo.example', 'carrier-demo');

// 1. a draft: unknown fields come back as warnings, not errors
const { data: draft, warnings } = await shipper.call('post', '/freights/add.json', {
  body: {
    from: 'city:DE-60311',
    to: 'airport:AMS',
    weight: 1250.5,
    etd_range: '2030-05-04 08:00 to 2030-05-04 12:00',
    refs: { customer: 'PO-4711' },
  },
});
// 2. publish (the 302 is followed by the GET the contract prescribes)
const open = await shipper.publish(draft.id, { deadline: '+48 hours' });
// 3. a bid, 4. both sides confirm
const { bid } = await carrier.post('/quotes/add.json', { body: { route: open.id, amount: 480.5, currency_code: 'EUR' } });
await shipper.confirm(bid.id);
const { awarded, freight } = await carrier.confirm(bid.id);
// 5. the order
console.log({ id: freight.id, awarded, status: freight.status, winner: freight.winner, price: freight.price, warnings });
