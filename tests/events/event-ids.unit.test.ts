import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newEventId } from '../../src/webhooks/outbox.ts';

// Event ids come from a pool of random bytes refilled 256 ids at a time (src/webhooks/outbox.ts):
// each is `evt_` and 128 bits in base64url, and none repeats, across refills too.
test('event ids are evt_ and 22 base64url characters, none repeated across many refills of the pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5_000; i++) {
    const id = newEventId();
    assert.match(id, /^evt_[A-Za-z0-9_-]{22}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 5_000);
});
