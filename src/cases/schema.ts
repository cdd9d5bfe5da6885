import { Type } from '@sinclair/typebox';
import { PAGING_INPUT, SHIPMENT_SCHEMA } from '../shipments/index.ts';

const short = Type.Union([Type.String({ description: 'YYYY-MM-DD HH:MM' }), Type.Null()]);

export const CASE_SCHEMA = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    author_user_id: Type.Integer(),
    author_company_id: Type.Integer(),
    created: short,
    modified: short,
    _links: Type.Array(
      Type.Object({
        id: Type.Integer(),
        author_user_id: Type.Integer(),
        author_company_id: Type.Integer(),
        created: short,
        modified: short,
        object: Type.Union([SHIPMENT_SCHEMA, Type.Null()], {
          description: 'the shipment as the caller may see it now; null once it is not visible',
        }),
      }),
    ),
  },
  { $id: 'Case', description: 'A case record (preview)' },
);

const ID = Type.Integer({ description: 'the case' });

export const CASE_DOCS = {
  index: {
    summary: 'The cases of the caller’s company',
    input: PAGING_INPUT,
    data: Type.Object({ cases: Type.Array(CASE_SCHEMA) }),
    preview: true,
  },
  add: {
    summary: 'Open a case (without links or files)',
    input: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
    data: Type.Object({ case: CASE_SCHEMA }),
    preview: true,
  },
  view: { summary: 'One case with its links', path: { id: ID }, data: Type.Object({ case: CASE_SCHEMA }), preview: true },
  link: {
    summary: 'Link a shipment the caller may see to the case (idempotent); answers every linked shipment',
    path: { id: ID },
    input: Type.Object({ route_id: Type.Integer({ description: 'the shipment (freight) id; also as route' }) }),
    data: Type.Object({ routes: Type.Array(SHIPMENT_SCHEMA) }),
    preview: true,
  },
};
