// The milk-run state machine (src/milkrun/states.ts), tested where it lives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LISTS, MOVES, decideMove, stateAfterEvent } from '../../src/milkrun/states.ts';
import { STATES } from '../../src/milkrun/tables.ts';

test('the owner selects, deselects and marks for follow-up until a trucker has the shipment', () => {
  assert.equal(decideMove('select', ['owner'], 'waiting')?.to, 'selected');
  assert.equal(decideMove('deselect', ['owner'], 'selected')?.to, 'deselected');
  assert.equal(decideMove('follow-up', ['owner'], 'deselected')?.to, 'follow_up');
  assert.equal(decideMove('select', ['owner'], 'follow_up')?.to, 'selected');
  for (const move of ['select', 'deselect', 'follow-up'] as const) {
    for (const state of ['dispatched', 'running', 'delivered'] as const)
      assert.equal(decideMove(move, ['owner'], state), null, `${move} from ${state}`);
    assert.equal(decideMove(move, ['carrier'], 'waiting'), null, `the carrier cannot ${move}`);
  }
});

test('dispatch: the owner hands a selected shipment over, the carrier starts the truck', () => {
  assert.equal(decideMove('dispatch', ['owner'], 'selected')?.to, 'dispatched');
  assert.equal(decideMove('dispatch', ['owner'], 'waiting'), null);
  assert.equal(decideMove('dispatch', ['carrier'], 'dispatched')?.to, 'running');
  assert.equal(decideMove('dispatch', ['carrier'], 'selected'), null);
  // A company that is both (forwarder trucking itself) may do either step.
  assert.equal(decideMove('dispatch', ['owner', 'carrier'], 'dispatched')?.to, 'running');
});

test('deliver: either party once a trucker has it, never before, never twice', () => {
  for (const party of ['owner', 'carrier'] as const) {
    assert.equal(decideMove('deliver', [party], 'dispatched')?.to, 'delivered');
    assert.equal(decideMove('deliver', [party], 'running')?.to, 'delivered');
    assert.equal(decideMove('deliver', [party], 'selected'), null);
    assert.equal(decideMove('deliver', [party], 'delivered'), null);
  }
  assert.equal(decideMove('deliver', [], 'running'), null);
});

test('a DLV status event delivers from any state; other codes move nothing', () => {
  for (const state of STATES.filter((s) => s !== 'delivered')) assert.equal(stateAfterEvent(state, 'DLV'), 'delivered');
  assert.equal(stateAfterEvent('delivered', 'DLV'), null);
  for (const code of ['RCF', 'NFD', 'AWD', 'DEP']) assert.equal(stateAfterEvent('waiting', code), null);
});

test('every state is in a list of its party, every list names known states, every move has a rule', () => {
  const listed = new Set(Object.values(LISTS).flatMap((l) => l.states));
  for (const state of STATES) assert.ok(listed.has(state), state);
  assert.deepEqual(
    Object.keys(LISTS)
      .map(Number)
      .sort((a, b) => a - b),
    [70, 71, 72, 73, 74, 75, 78, 80, 81, 82, 83, 84],
  );
  for (const move of MOVES)
    assert.ok(
      STATES.some((s) => decideMove(move, ['owner', 'carrier'], s)),
      move,
    );
});
