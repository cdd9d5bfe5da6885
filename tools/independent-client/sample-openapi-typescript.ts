// A hand-written sample over the types openapi-typescript generates from the server's API
// description (generate.mjs writes them to generated/openapi-typescript/): an answer narrowed on
// `status`, a refused form's fields read from the error envelope's `data.errors`, the caller's
// token from `auth`, a document's download in its three media types. No casts, no `any`: if the
// description types these wrongly, this fails to compile under `tsc --strict`
// (tests/client/independent-client.test.ts).
import type { components, paths } from './generated/openapi-typescript/schema.js';

type OfferAnswer = paths['/vehicles/add.json']['post']['responses'][200]['content']['application/json'];
type Envelope = components['schemas']['ErrorEnvelope'];

/** The fields a refused offer names, none for a success. */
export function refusedFields(answer: OfferAnswer): string[] {
  if (answer.status === 'success') return [];
  return Array.isArray(answer.data) ? [] : (answer.data.errors ?? []).map((e) => e.field);
}

/** The token a caller by token reads in `auth`; none for a session or anonymous caller. */
export function tokenOf(envelope: Envelope): string | undefined {
  return 'token' in envelope.auth ? envelope.auth.token : undefined;
}

/** The media types a document downloads in. */
export const DOCUMENT_TYPES: ReadonlyArray<keyof paths['/freights/document/{id}']['get']['responses'][200]['content']> = [
  'application/pdf',
  'image/jpeg',
  'image/png',
];
