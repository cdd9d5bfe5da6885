import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../../src/app.ts'; // every module registers its texts on import
import { untranslated } from '../../src/kernel/i18n.ts';

test('every text of the interface exists in English and German', () => {
  assert.deepEqual(untranslated(), []);
});
