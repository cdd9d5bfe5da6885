import type { State } from './tables.ts';

/**
 * The milk-run state machine, in one place (docs/reference.md#preview and docs/choices.md, Preview).
 *
 * Parties: the `owner` is the handler/forwarder, i.e. the company whose status file created the
 * shipment; the `carrier` is the trucking company that dispatch assigned. Handling (70-78) and
 * forwarding (80-84) are two cuts of the owner's states; trucking (73-75) is the carrier's.
 *
 *   waiting, selected, deselected, follow_up: select / deselect / follow-up between them
 *   selected   -> dispatched  dispatch by the owner, with the trucker as `carrier`
 *   dispatched -> running     dispatch by the carrier (the truck leaves)
 *   dispatched, running -> delivered  deliver by either party
 * A DLV status event marks any shipment delivered (the handler's system is the fact).
 */
export const MOVES = ['select', 'deselect', 'follow-up', 'dispatch', 'deliver'] as const;
export type Move = (typeof MOVES)[number];

export type Party = 'owner' | 'carrier';

interface Rule {
  party: Party;
  from: readonly State[];
  to: State;
}

const TRANSITIONS: Record<Move, readonly Rule[]> = {
  // The selection decisions stay revisable until the shipment is handed to a trucker.
  select: [{ party: 'owner', from: ['waiting', 'deselected', 'follow_up'], to: 'selected' }],
  deselect: [{ party: 'owner', from: ['waiting', 'selected', 'follow_up'], to: 'deselected' }],
  'follow-up': [{ party: 'owner', from: ['waiting', 'selected', 'deselected'], to: 'follow_up' }],
  // The forwarder dispatches to a trucker (carrier param); the trucker dispatches its truck.
  dispatch: [
    { party: 'owner', from: ['selected'], to: 'dispatched' },
    { party: 'carrier', from: ['dispatched'], to: 'running' },
  ],
  // Either side may confirm the delivery once a trucker has it.
  deliver: [
    { party: 'owner', from: ['dispatched', 'running'], to: 'delivered' },
    { party: 'carrier', from: ['dispatched', 'running'], to: 'delivered' },
  ],
};

/** The rule a caller holding `parties` may apply from `state`, or null when the move is not allowed. */
export function decideMove(move: Move, parties: readonly Party[], state: State): Rule | null {
  return TRANSITIONS[move].find((r) => parties.includes(r.party) && r.from.includes(state)) ?? null;
}

/** The state after a status event: only DLV moves a shipment (to delivered). */
export function stateAfterEvent(state: State, code: string): State | null {
  return code === 'DLV' && state !== 'delivered' ? 'delivered' : null;
}

/** Filter ids of docs/reference.md#the-api: which party's shipments, in which states. */
export const LISTS: Readonly<Record<number, { party: Party; states: readonly State[] }>> = {
  // handling
  70: { party: 'owner', states: ['waiting'] },
  71: { party: 'owner', states: ['selected'] },
  78: { party: 'owner', states: ['follow_up'] },
  72: { party: 'owner', states: ['deselected'] },
  // forwarding import
  80: { party: 'owner', states: ['waiting', 'follow_up'] },
  81: { party: 'owner', states: ['selected'] },
  82: { party: 'owner', states: ['deselected'] },
  83: { party: 'owner', states: ['dispatched', 'running'] },
  84: { party: 'owner', states: ['delivered'] },
  // trucking import
  73: { party: 'carrier', states: ['dispatched'] },
  74: { party: 'carrier', states: ['running'] },
  75: { party: 'carrier', states: ['delivered'] },
};

export const isMilkrunList = (filterId: number) => Object.hasOwn(LISTS, filterId);
