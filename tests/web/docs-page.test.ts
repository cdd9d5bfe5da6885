import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { renderToString } from 'preact-render-to-string';
import type { OpenApiDocument } from '../../src/openapi/document.ts';
import { referencePage } from '../../src/openapi/views.tsx';
import { HAVE_CHROMIUM, launchBrowser, screenshot } from '../support/browser.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { DESKTOP, PHONE, assertNoSideScroll } from './helpers.ts';

/** GET /docs, the API reference: its Markdown rendered (safely), no sideways scroll, contents links apart. */

let app: TestApp;
let base: string;
let browser: Browser | undefined;

before(async () => {
  app = await startTestApp();
  if (HAVE_CHROMIUM) {
    base = await app.listen();
    browser = await launchBrowser();
  }
});
after(async () => {
  await browser?.close();
  await app?.close();
});

/** The page's text outside <code> elements. */
const proseOf = (html: string) => html.replace(/<code>[\s\S]*?<\/code>/g, '').replace(/<[^>]+>/g, '');

/** Text as the page shows it: markup dropped, entities read. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Each `<article class="operation" id="…">` of the page (operations, events, resources) by id: its HTML. */
function articles(html: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const m of html.matchAll(/<article class="operation" id="([^"]+)">([\s\S]*?)<\/article>/g)) {
    found.set(m[1]!, [...(found.get(m[1]!) ?? []), m[2]!]);
  }
  return found;
}

/** The `<pre class="example"><code>` blocks of a part of the page, as text. */
const examplesIn = (html: string) => [...html.matchAll(/<pre class="example"><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => textOf(m[1]!));

/** A value as the page prints an example. */
const printed = (value: unknown) => JSON.stringify(value, null, 2);

describe('the API reference page', () => {
  test('shows the Markdown of the descriptions as text: code, lists, no backticks', async () => {
    const res = await app.get('/docs');
    assert.equal(res.status, 200);
    assert.ok(!proseOf(res.text).includes('`'), 'no backtick is left in the text');
    assert.match(res.text, /<ul><li>Every path ends in <code>\.json<\/code>/, 'the conventions are a list');
    assert.ok(!/<pre class="conventions">/.test(res.text));
    assert.match(res.text, /airport:&lt;IATA> or city:&lt;CC>-&lt;postal code>/, 'angle brackets stay text');
  });

  test('renders emphasis and links, and nothing a description could smuggle in', () => {
    const doc = {
      openapi: '3.1.0',
      info: {
        description: [
          'Read **carefully**: *only* _this_, not auth_token or from_near.',
          '- [the list](/freights/enlist/10) and [a section](#schemas) and [the web](https://example.org/x)',
          '- [evil](javascript:alert(1)) [protocol-relative](//evil.example) <img src=x onerror=alert(1)> "quoted" & more',
        ].join('\n'),
      },
      paths: {},
      components: { schemas: {} },
    } as unknown as OpenApiDocument;
    const html = renderToString(referencePage(doc, (key: string) => key).body as never);
    assert.match(html, /Read <strong>carefully<\/strong>: <em>only<\/em> <em>this<\/em>, not auth_token or from_near\./);
    assert.match(html, /<a href="\/freights\/enlist\/10">the list<\/a>/);
    assert.match(html, /<a href="#schemas">a section<\/a>/);
    assert.match(html, /<a href="https:\/\/example.org\/x">the web<\/a>/);
    assert.ok(!/href="javascript|href="\/\/evil/.test(html), 'no script or other-site link');
    assert.ok(html.includes('[evil](javascript:alert(1))'), 'an unsafe link stays text');
    assert.ok(!html.includes('<img'), 'markup is text');
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)>'));
  });

  test('says how to authenticate: the login, then the token in the Authorization header (English and German)', async () => {
    for (const [language, title] of [
      ['en', 'Authentication'],
      ['de', 'Authentifizierung'],
    ]) {
      const res = await app.get('/docs', { headers: { 'accept-language': language! } });
      const section = /<section id="authentication"[^>]*>([\s\S]*?)<\/section>/.exec(res.text)?.[1];
      assert.ok(section, `${language}: an authentication section`);
      assert.match(section, new RegExp(`<h2 id="authentication-title">${title}</h2>`));
      const samples = examplesIn(section);
      assert.ok(
        samples.some((s) => s.startsWith('curl -X POST "$BASE_URL/users/login.json"') && s.includes('"auth": {"user"')),
        'the login as curl',
      );
      assert.ok(samples.includes('Authorization: TokenPass <API_TOKEN>'), 'the header to send');
      assert.match(textOf(section), /auth_token=<API_TOKEN>/, 'the query parameter, for tests only');
    }
  });

  test('every operation of /openapi.json has its curl sample and its recorded examples', async () => {
    const doc = (await app.get('/openapi.json')).body as OpenApiDocument;
    const page = articles((await app.get('/docs')).text);
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        const id = op.operationId;
        assert.equal(page.get(id)?.length, 1, `${method} ${path}: one entry (#${id})`);
        const html = page.get(id)![0]!;
        const [curl = '', ...shown] = examplesIn(html);
        assert.ok(curl?.startsWith('curl '), `${id}: a curl sample`);
        // Its URL: the path with the recorded values of its path parameters (and the recorded query).
        let url = path;
        const query: string[] = [];
        for (const p of op.parameters ?? []) {
          const value = p.examples?.recorded?.value;
          if (value === undefined) continue;
          if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
          if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(value))}`);
        }
        const first = curl.split('\n')[0]!.replace(/ \\$/, '');
        const target = `$BASE_URL${url}${query.length ? `?${query.join('&')}` : ''}`;
        assert.equal(first, `curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} '${target}'`, id);
        assert.ok(!target.includes('{'), `${id}: every path parameter filled in`);
        assert.equal(curl.includes("-H 'Authorization: TokenPass <API_TOKEN>'"), op.security.length > 0, `${id}: the token header`);
        const request = op.requestBody?.content['application/json']?.examples?.recorded?.value;
        if (request !== undefined) {
          assert.ok(
            curl.includes(`-d '${JSON.stringify(request).replaceAll("'", "'\\''")}'`),
            `${id}: the recorded body in the curl sample`,
          );
          assert.ok(shown.includes(printed(request)), `${id}: the request example`);
        }
        const answer = Object.values(op.responses?.['200']?.content ?? {})[0]?.examples?.recorded?.value;
        if (answer !== undefined) assert.ok(shown.includes(printed(answer)), `${id}: the response example`);
        else assert.ok(op.responses?.['302'], `${id}: a response example, unless its success is a redirect`);
      }
    }
    assert.ok(operations > 80, `${operations} operations`);
  });

  test('every event type has one entry with its data and a delivered example', async () => {
    const doc = (await app.get('/openapi.json')).body as OpenApiDocument;
    const html = (await app.get('/docs')).text;
    const page = articles(html);
    const types = Object.keys(doc.webhooks);
    assert.ok(types.includes('freight.published') && types.includes('webhook.test'), types.join());
    assert.match(html, /<li><a href="#events">Events \(webhooks\)<\/a><\/li>/, 'the contents lead to them');
    for (const type of types) {
      assert.equal(page.get(`event-${type}`)?.length, 1, `${type}: one entry`);
      const entry = page.get(`event-${type}`)![0]!;
      assert.match(entry, new RegExp(`<h3><code>${type.replace('.', '\\.')}</code></h3>`));
      const example = doc.webhooks[type]!.post.requestBody?.content['application/json']?.examples?.recorded?.value;
      assert.ok(example, `${type}: a recorded example in the description`);
      assert.deepEqual(examplesIn(entry), [printed(example)], `${type}: the example on the page`);
    }
    assert.equal([...page.keys()].filter((id) => id.startsWith('event-')).length, types.length, 'nothing but the event types');
  });

  test('the contents are a list of links', async () => {
    const res = await app.get('/docs');
    assert.match(res.text, /<nav aria-label="Contents"><ul class="toc"><li><a href="#tag-accounts">accounts<\/a><\/li><li>/);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`in a browser at ${viewport.width} px: no sideways scroll, contents links stand apart`, { skip: !HAVE_CHROMIUM }, async () => {
      const context = await browser!.newContext({ viewport });
      try {
        const page = await context.newPage();
        await page.goto(`${base}/docs`);
        await assertNoSideScroll(page, '/docs');
        await screenshot(page, `issue24-docs-${viewport.width}`, { fullPage: false });
        // An operation as it reads: its description's Markdown as text, code and links, its curl sample.
        await page.locator('article.operation').first().scrollIntoViewIfNeeded();
        await screenshot(page, `issue24-docs-operation-${viewport.width}`, { fullPage: false });
        const boxes = await page.locator('.toc a').evaluateAll((links) =>
          links.map((a) => {
            const r = a.getBoundingClientRect();
            return { left: r.left, right: r.right, top: r.top, text: a.textContent };
          }),
        );
        assert.ok(boxes.length > 10);
        for (let i = 1; i < boxes.length; i++) {
          const [a, b] = [boxes[i - 1]!, boxes[i]!];
          if (Math.abs(a.top - b.top) > 2) continue; // the next line
          assert.ok(b.left - a.right >= 8, `${a.text} and ${b.text} are ${b.left - a.right}px apart`);
        }
      } finally {
        await context.close();
      }
    });
  }
});
