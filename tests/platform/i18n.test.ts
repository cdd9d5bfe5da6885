import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { CATALOGUES } from '../../src/app.ts';
import { installCatalogues, translator, type Catalogue, type MessageKey } from '../../src/kernel/i18n.ts';

// A key missing in either language fails the typecheck (kernel/i18n.ts catalogue); what is left
// to check at run time is that the composition root installs every module's catalogue.
test('every catalogue of src/ (a file that builds one: messages.ts, one-step-messages.ts, texts.ts) is installed, and every text exists in English and German', async () => {
  const files = (fs.readdirSync(new URL('../../src/', import.meta.url), { recursive: true }) as string[]).filter(
    (f) =>
      /\.tsx?$/.test(f) &&
      f !== 'kernel/i18n.ts' &&
      /=\s*catalogue\(/.test(fs.readFileSync(new URL(`../../src/${f}`, import.meta.url), 'utf8')),
  );
  const found: Catalogue[] = [];
  for (const f of files) {
    const exported = (await import(`../../src/${f}`)) as Record<string, unknown>;
    found.push(...Object.values(exported).filter((v): v is Catalogue => typeof v === 'object' && v !== null && 'eng' in v && 'deu' in v));
  }
  assert.ok(found.length >= 10, `catalogues found: ${found.length}`);
  for (const c of found)
    assert.ok(CATALOGUES.includes(c as never), `a catalogue of src/ is not installed by app.ts: ${Object.keys(c.eng)[0]}`);
  // What buildApp installs (app.ts): every key then has its text in both languages.
  installCatalogues(CATALOGUES);
  const eng = translator('eng');
  const deu = translator('deu');
  for (const c of found) {
    for (const key of Object.keys(c.eng) as MessageKey[]) {
      assert.notEqual(eng(key), key, key);
      assert.notEqual(deu(key), key, key);
    }
  }
});
