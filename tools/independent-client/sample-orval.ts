// A hand-written sample over the models and fetch client orval generates from the server's API
// description (generate.mjs writes them to generated/orval/): a refused form's fields read from the
// error envelope's `data.errors`, the caller's token from `auth`. No casts, no `any`: if the
// description types these wrongly (orval's models once did not compile: issue 39), this fails
// under `tsc --strict` (tests/client/independent-client.test.ts).
import type { ErrorEnvelope } from './generated/orval/api.js';
import { postVehiclesAdd } from './generated/orval/api.js';

/** The fields a refused answer names. */
export function refusedFields(envelope: ErrorEnvelope): string[] {
  return Array.isArray(envelope.data) ? [] : (envelope.data.errors ?? []).map((e) => e.field);
}

/**
 * The token a caller by token reads in `auth`; none for a session or anonymous caller. (orval
 * writes the anonymous `{}` as an object of any keys, so `in` alone does not narrow: the type test does.)
 */
export function tokenOf(envelope: ErrorEnvelope): string | undefined {
  const auth = envelope.auth;
  return 'token' in auth && typeof auth.token === 'string' ? auth.token : undefined;
}

/** The generated call, as a client writes it. */
export const addOffer: typeof postVehiclesAdd = postVehiclesAdd;
