import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { renderToString } from 'preact-render-to-string';
import type { OpenApiDocument } from '../../src/openapi/document.ts';
import { referencePage } from '../../src/openapi/views.tsx';
import { HAVE_CHROMIUM, launchBrowser } from '../support/browser.ts';
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
