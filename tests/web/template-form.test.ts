import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type Actor, type TestApp } from '../support/harness.ts';
import { browserSession } from '../support/session.ts';

/**
 * The template form reads what a person types as the freight form does (German numbers, weights
 * with units, country names, German dates); the JSON API of templates keeps its own rules.
 */
describe('pages: the template form reads German input', () => {
  let app: TestApp;
  let german: Actor;

  before(async () => {
    app = await startTestApp({ env: { APP_TIMEZONE: 'Europe/Berlin' } });
    german = await app.actor('Spedition Süd', { language: 'deu' });
  });
  after(() => app.close());

  test('country names, 12,5 t, 1.745,50 and 26.11.2030 08:00 become the API’s values', async () => {
    const { cookie, csrf } = await browserSession(app, german);
    const res = await app.post('/templates/add', {
      headers: { cookie },
      form: {
        _csrf: csrf,
        name: 'Wöchentlich Leipzig–Mailand',
        from: '04159',
        from_country: 'Deutschland',
        to: 'DE-80331',
        to_country: '',
        etd: '26.11.2030 08:00',
        weight: '12,5 t',
        'refs[target_rate]': '1.745,50',
        'refs[commodity]': 'Maschinenteile',
        'pieces[0][pieces]': '3',
        'pieces[0][weight]': '4.166,5',
        'pieces[1][pieces]': '',
      },
    });
    assert.equal(res.status, 302, res.text.slice(0, 300));
    assert.equal(res.headers.location, '/templates/index');
    const [template] = (await app.get('/templates/index.json', { token: german.token })).body.data.templates;
    assert.equal(template.fields.from, '04159');
    assert.equal(template.fields.from_country, 'DE');
    assert.equal(template.fields.to, 'city:DE-80331');
    assert.equal(template.fields.etd, '2030-11-26 08:00');
    assert.equal(template.fields.weight, '12500');
    assert.deepEqual(template.fields.refs, { target_rate: '1745.5', commodity: 'Maschinenteile' });
    assert.deepEqual(template.fields.pieces, [{ pieces: '3', weight: '4166.5' }], 'the empty piece line is dropped');
    const page = await app.get('/templates/index', { headers: { cookie } });
    assert.match(page.text, /04159 Leipzig \(DE\) → 80331 München \(DE\)/, 'each postal code is named by its town');
    assert.match(page.text, /12\.500 kg/);
  });

  test('an airport the server does not know is said beside its field; nothing is saved', async () => {
    const { cookie, csrf } = await browserSession(app, german);
    const res = await app.post('/templates/add', {
      headers: { cookie },
      form: { _csrf: csrf, name: 'Luftfracht', from: 'QQQ', weight: '500' },
    });
    assert.equal(res.status, 200);
    assert.match(res.text, /id="f-from-error"[^>]*>QQQ ist kein bekannter Flughafen/);
    assert.match(res.text, /name="name"[^>]*value="Luftfracht"|value="Luftfracht"[^>]*name="name"/);
    assert.equal((await app.get('/templates/index.json', { token: german.token })).body.data.templates.length, 1);
  });

  test('the JSON API keeps its rules: 12,5 t is no weight there, ignored with a warning', async () => {
    const res = await app.post('/templates/add.json', {
      token: german.token,
      json: { name: 'API', from: 'airport:FRA', weight: '12,5 t' },
    });
    assert.equal(res.body.status, 'success');
    assert.ok(res.body.warnings.some((w: { field: string }) => w.field === 'weight'));
  });
});
