import { Type, type TSchema } from '@sinclair/typebox';
import type { EventDoc } from '../events/index.ts';
import type { EndpointDoc } from '../kernel/doc.ts';
import { timestamp } from '../kernel/fields.ts';
import type { Endpoint } from '../kernel/route.tsx';

/**
 * The OpenAPI 3.1 description of every JSON endpoint (shared decisions §10), generated from
 * the route table the server runs: each endpoint's method, path and authentication, and its
 * `doc` (schemas from the modules' field tables), and the routes outside the envelope that
 * describe themselves (ONE Record), and the events the webhooks deliver (each module's EventDoc,
 * collected by app.ts). Nothing here is maintained by hand but the texts about the contract's
 * conventions and the tags.
 */

/**
 * What a route registered on Fastify itself, outside the kernel's envelope (ONE Record's
 * JSON-LD), says about itself in its route config as `openapi`: every answer, success or
 * failure, is a `mediaType` document, a failure's shaped `error`; `doc.data` is the whole answer.
 */
export interface MediaRouteDoc {
  auth: 'user' | 'public';
  doc: EndpointDoc;
  /** the media type of a success; several when the answer is one of them (a document: PDF, JPEG or PNG) */
  mediaType: string | readonly string[];
  error: TSchema;
  /** the media type of a failure, when it is not `mediaType` (a download's failures are the JSON envelope) */
  errorType?: string;
  /** Request headers it reads, beyond authentication (the stream's `Last-Event-ID`). */
  headers?: Record<string, TSchema>;
}

/** A self-described route as registered: its method and path (`:name` parameters). */
export interface MediaRoute extends MediaRouteDoc {
  method: string;
  path: string;
}

/** One operation to describe: a kernel endpoint's (in the envelope, `.json`) or a media route's. */
interface Described {
  method: string;
  /** the route's path, `:name` parameters */
  path: string;
  auth: 'user' | 'public';
  doc: EndpointDoc;
  /** answers outside the envelope: their media types and the body of a failure */
  media?: { types: readonly string[]; error: TSchema; errorType?: string; headers?: Record<string, TSchema> };
}

/** A JSON Schema as the description writes it: TypeBox's schemas inlined, named ones as `$ref`. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  description?: string;
  [keyword: string]: unknown;
}

/** An OpenAPI 3.1 Example Object: a recorded value (src/openapi/examples.json). */
export interface ExampleObject {
  summary: string;
  value: unknown;
}

/** What `npm run examples:generate` recorded for one operation (tests/support/api-examples.ts). */
export interface RecordedExample {
  method: string;
  /** the request path as sent (`/freights/view/12.json`) */
  url: string;
  /** the JSON body (POST) or the query parameters (GET), when the request had any */
  request?: Record<string, unknown>;
  /** the 200 answer; none when the operation's success is a 302 (publish, confirm) */
  response?: unknown;
}

export interface ParameterObject {
  name: string;
  examples?: Record<string, ExampleObject>;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: SchemaObject;
  description?: string;
  style?: 'deepObject';
  explode?: boolean;
}

/** How a form body's field is written: bracket keys (`auth[user]`, `pieces[0][weight]`) for nested ones. */
export interface EncodingObject {
  style: 'deepObject';
  explode: true;
}

export interface MediaObject {
  schema: SchemaObject;
  examples?: Record<string, ExampleObject>;
  encoding?: Record<string, EncodingObject>;
}

/** An OpenAPI Link Object: the operation a client may call next, with values taken from this answer. */
export interface LinkObject {
  operationId: string;
  description: string;
  parameters: Record<string, string>;
  requestBody?: unknown;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaObject>;
  headers?: Record<string, { schema: SchemaObject; description: string }>;
  links?: Record<string, LinkObject>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  requestBody?: { description: string; required: boolean; content: Record<string, MediaObject> };
  parameters?: ParameterObject[];
  /** always set; written last, so it follows the others in the document */
  responses?: Record<string, ResponseObject>;
  'x-preview'?: true;
}

export interface ServerObject {
  url: string;
  description: string;
  variables?: Record<string, { default: string; description?: string }>;
}

/** The OpenAPI 3.1 document as buildOpenApiDocument writes it. */
export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect: string;
  info: {
    title: string;
    version: string;
    summary: string;
    description: string;
    contact: { name: string; url: string };
    license: { name: string; identifier: string };
  };
  servers: ServerObject[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  /** The events the webhooks deliver, by type (docs/reference.md#events): a POST of the event to the subscriber's URL. */
  webhooks: Record<string, { post: OperationObject }>;
  components: { schemas: Record<string, SchemaObject>; securitySchemes: Record<string, Record<string, string>> };
}

type Json = Record<string, unknown>;

/**
 * `data` of a failure: an empty array (docs/reference.md#the-api), or the endpoint's keys with empty lists
 * (`{"routes": []}`); a refused form (a vehicle offer, a company profile, a message, a document)
 * has `errors`, each field with its problem; a refused query (a lane without its two ends)
 * `warnings`, the parameters it read otherwise or ignored on the way. The other keys are allowed
 * as any value in the schema (their empty lists are said in words): an object whose named members
 * share it with an index signature of another type (`errors` beside "every other key an empty
 * list") does not compile as TypeScript generators write it (orval: TS2411, issue 39), and clients
 * are generated from this as it is; `data.errors` stays typed for a client that reads it.
 */
const ERROR_DATA = Type.Union(
  [
    Type.Array(Type.Unknown(), { maxItems: 0, description: 'nothing: an empty array (api.md)' }),
    Type.Object(
      {
        errors: Type.Optional(
          Type.Array(Type.Object({ field: Type.String(), reason: Type.String() }), {
            description: 'each refused field with its problem (vehicle.invalid, companies.invalid, messages.*, documents.*)',
          }),
        ),
        warnings: Type.Optional(
          Type.Array(Type.Ref('Warning'), {
            description: 'parameters that were read otherwise or ignored before the refusal (prices.lane_required)',
          }),
        ),
      },
      {
        additionalProperties: true,
        description:
          'the success’s keys, each with an empty list (`{"routes": []}`); `errors` for a refused form; `warnings` for a refused query',
      },
    ),
  ],
  {
    description:
      'an empty array, or the success’s keys each with an empty list (`{"routes": []}`), with `errors` for a refused form and `warnings` for what a refused query ignored',
  },
);

/** The envelope of every JSON answer (docs/reference.md#envelope), as reusable components. */
const COMPONENT_SCHEMAS: Record<string, TSchema> = {
  Auth: Type.Union(
    [
      Type.Object({
        email: Type.String(),
        token: Type.String({ description: 'the API token (api.md, Authentication)' }),
        language: Type.String({ description: 'three-letter language code: eng or deu' }),
      }),
      Type.Object(
        {
          email: Type.String(),
          language: Type.String({ description: 'three-letter language code: eng or deu' }),
        },
        {
          additionalProperties: false,
          description:
            'a caller by the browser session (the pages’ own scripts): never the token, which a compressed answer beside echoed input would give away',
        },
      ),
      Type.Object({}, { additionalProperties: false, description: 'anonymous or failed authentication' }),
    ],
    { description: 'repeats the caller: its token only to a caller that sent the token or logged in with its password' },
  ),
  Warning: Type.Object(
    { field: Type.String(), reason: Type.String() },
    { description: 'a parameter that was ignored, and why (the answer still says success)' },
  ),
  ErrorEnvelope: Type.Object(
    {
      data: ERROR_DATA,
      status: Type.Literal('error'),
      auth: Type.Ref('Auth'),
      message: Type.String({ description: 'what went wrong, in the caller’s language where the text is a user’s' }),
      code: Type.Ref('ErrorCode'),
    },
    { description: 'a functional failure (200) or a refusal (401, 404, 4xx)' },
  ),
};

function successEnvelope(data: TSchema | undefined, operationId: string): TSchema {
  return Type.Object(
    {
      data: data ?? Type.Object({}, { additionalProperties: true }),
      status: Type.Literal('success'),
      auth: Type.Ref('Auth'),
      warnings: Type.Optional(Type.Array(Type.Ref('Warning'))),
    },
    { description: `A success of ${operationId}: the payload in \`data\`.` },
  );
}

/** The groups of the reference, each with what it holds; a tag without one fails the document's lint test. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  accounts: 'Log in for the API token, the caller, the password.',
  cases: 'Case records linking shipments (preview).',
  cmr: 'The electronic consignment note, e-CMR (decisions.md §19): issued on the award of a road freight, signed at loading by sender and carrier and at delivery by the consignee through a link, checked by anyone with a copy.',
  companies: 'Company profiles, the operator’s verification, ratings after delivery and their replies, blocking (decisions.md §12).',
  documents:
    'Documents of a freight’s two parties (decisions.md §13): attach (PDF, JPEG, PNG), list, download; the transport order the exchange adds on award.',
  events:
    'The events (decisions.md §8): the signed POSTs of JSON a webhook receives at the URL it registered, and the live board’s stream of the same events (decisions.md §15, GET /events/stream).',
  files: 'File push: status messages and rate sheets (preview).',
  flights: 'Scheduled flights a booking request can be made from.',
  freights: 'Freights (transport requests): create, edit, publish, the lists and counts, booking requests, tracking.',
  messages:
    'The conversation beside a freight between its owner and each company that may see it, and the unread count (decisions.md §13).',
  market: 'Lane prices (decisions.md §14): what awarded road freights on a lane cost, by month, never a single deal.',
  milkrun: 'Milk-run import shipments built from status events, their lists and steps (preview).',
  notifications: 'Alerts of saved searches: freights that entered the market and match.',
  onerecord: 'IATA ONE Record (JSON-LD) view of the company’s air shipments and their events, outside the envelope.',
  places: 'Place suggestions for origin and destination fields.',
  pricing: 'Trucking-rate search (authenticated and public), its history, autocomplete and feedback.',
  quotes: 'Bids on freights: submit, confirm (both sides award), revoke.',
  searches: 'Saved load searches and their alerts.',
  shipments: 'The Shipment view of freights and of the TMS and milk-run lists (preview).',
  templates: 'Freight templates and freights created from them.',
  tenders:
    'Lane tenders and contracts (decisions.md §17): a shipper tenders its lanes, carriers bid sealed per lane, the shipper awards; the awarded lanes are contracts its freights’ routing guide uses.',
  tracking:
    'Tracking by permission (decisions.md §18): the winner’s truck positions of an awarded freight, its ETA and milestones, for the freight’s two parties only and until delivery; the driver’s link without an account.',
  tms: 'Tours of won orders (TMS, preview).',
  vehicles: 'Vehicle offers: free trucks of carriers, searched by shippers and matched with freights both ways (decisions.md §11).',
  webhooks: 'Webhooks: register a URL for event types, list, delete, recent deliveries, test event.',
};

export interface DocumentOptions {
  version: string;
  /** The events the webhooks deliver, by type (app.ts collects every module's). */
  events?: Readonly<Record<string, EventDoc>>;
  /** One recorded request and answer per operation id (src/openapi/examples.json), attached as Example Objects. */
  examples?: Readonly<Record<string, RecordedExample>>;
  /** One recorded delivery body per event type (src/openapi/event-examples.json), attached to its webhook. */
  eventExamples?: Readonly<Record<string, unknown>>;
  /** Every code of an error answer -> its meaning (app.ts ERROR_CODES): the ErrorCode schema. */
  errorCodes?: Readonly<Record<string, string>>;
}

/** `code` of the error envelope: every code the server answers with, and what each means. */
function errorCodeSchema(codes: Readonly<Record<string, string>>): SchemaObject {
  const names = Object.keys(codes).sort();
  return {
    type: 'string',
    enum: names,
    description: `What went wrong, for programs: every error answer carries one beside its \`message\`. Codes are stable: never renamed or reused, only added. Each code and what it means (for a functional failure, the English text of its \`message\`, where \`{…}\` stands for a value of the request):\n\n${names.map((code) => `- \`${code}\`: ${codes[code]}`).join('\n')}`,
  };
}

export function buildOpenApiDocument(
  endpoints: readonly Endpoint[],
  options: DocumentOptions,
  mediaRoutes: readonly MediaRoute[] = [],
): OpenApiDocument {
  const components = new Components();
  for (const [name, schema] of Object.entries(COMPONENT_SCHEMAS)) components.add(name, schema);
  components.schemas.ErrorCode = options.errorCodes ? errorCodeSchema(options.errorCodes) : { type: 'string' };
  const all: Array<{ at: string; described: Described }> = [];
  for (const endpoint of endpoints) {
    if (endpoint.spec.json === false) continue;
    const { path, doc } = endpoint.spec;
    const at = `${path === '/' ? '/index' : openApiPath(path)}.json`;
    for (const method of [endpoint.spec.method].flat())
      all.push({
        at,
        described: { method: method.toLowerCase(), path, auth: endpoint.auth, doc: doc ?? { summary: `${method.toUpperCase()} ${path}` } },
      });
  }
  for (const route of mediaRoutes) {
    const { method, path, auth, doc, mediaType, error, errorType, headers } = route;
    all.push({
      at: openApiPath(path),
      described: {
        method: method.toLowerCase(),
        path,
        auth,
        doc,
        media: { types: typeof mediaType === 'string' ? [mediaType] : mediaType, error, errorType, headers },
      },
    });
  }
  const ids = operationIds(all.map((a) => a.described));
  // An operation by method and path as registered (`GET /freights/view/:id`): the targets of links.
  const byRoute = new Map(all.map(({ described }, i) => [`${described.method.toUpperCase()} ${described.path}`, ids[i]!]));
  const paths: Record<string, Record<string, OperationObject>> = {};
  all.forEach(({ at, described }, i) => {
    const operations = paths[at] ?? {};
    paths[at] = operations;
    operations[described.method] = operation(described, ids[i]!, components, byRoute);
    const example = options.examples?.[ids[i]!];
    if (example) attachExample(operations[described.method]!, at, example);
  });
  const webhooks: Record<string, { post: OperationObject }> = {};
  for (const [type, doc] of Object.entries(options.events ?? {}))
    webhooks[type] = { post: eventOperation(type, doc, components, options.eventExamples?.[type]) };
  const operations = [...Object.values(paths).flatMap((ops) => Object.values(ops)), ...Object.values(webhooks).map((w) => w.post)];
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Freight Exchange, Rate Search and Quotes API',
      version: options.version,
      summary: 'Freights, bids, rate search and the preview endpoints of a self-hosted freight exchange.',
      description: CONVENTIONS,
      // A self-hosted exchange is run by its operator: its home page (relative to the server) is where users reach it.
      contact: { name: 'The operator of this exchange', url: '/' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: '{baseUrl}',
        // The variable's meaning in the server's text: orval's validator refuses a description on a server variable.
        description:
          'A server of the exchange: `baseUrl` is its scheme, host and port, without a trailing slash (the default is where `npm start` listens). Demo and production are separate deployments with separate tokens.',
        variables: { baseUrl: { default: 'http://127.0.0.1:8080' } },
      },
    ],
    tags: [...new Set(operations.flatMap((o) => o.tags))].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    webhooks,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        TokenPass: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'The header `Authorization: TokenPass <API_TOKEN>` (the scheme keyword is a fixed literal). Obtain the token with POST /users/login.json; it does not expire.',
        },
        auth_token: {
          type: 'apiKey',
          in: 'query',
          name: 'auth_token',
          description: 'The token as a query (or body) parameter: for quick tests only, query strings appear in logs.',
        },
      },
    },
  };
}

/** `/freights/view/:id` → `/freights/view/{id}` */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);
/** `freight.delivery_status` → `FreightDeliveryStatus` */
const pascal = (text: string) => text.split(/[._-]/).filter(Boolean).map(capital).join('');

/** Whether a form field is written with bracket keys: an object, or a list of objects. */
function nested(schema: SchemaObject): boolean {
  if (schema.$ref || schema.type === 'object') return true;
  if (schema.type === 'array') return !!schema.items && nested(schema.items);
  return (schema.anyOf ?? schema.oneOf ?? []).some(nested);
}

function operation(
  described: Described,
  operationId: string,
  components: Components,
  byRoute: ReadonlyMap<string, string>,
): OperationObject {
  const { method, doc, media } = described;
  const user = described.auth === 'user';
  const pathNames = [...described.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const parameters: ParameterObject[] = pathNames.map(
    (name): ParameterObject => ({
      name,
      in: 'path',
      required: true,
      schema: components.inline(doc.path?.[name] ?? Type.String()),
      ...(doc.path?.[name]?.description ? { description: doc.path[name]!.description } : {}),
    }),
  );
  const op: OperationObject = {
    operationId,
    summary: doc.summary,
    description: operationDescription(described),
    tags: [doc.tag ?? tagOf(described.path)],
    security: user ? [{ TokenPass: [] }, { auth_token: [] }] : [],
  };
  for (const [name, schema] of Object.entries(media?.headers ?? {})) {
    const { description, ...rest } = components.inline(schema);
    parameters.push({ name, in: 'header', required: false, schema: rest, ...(typeof description === 'string' ? { description } : {}) });
  }
  if (doc.input) {
    if (method === 'get') {
      const input = components.inline(doc.input);
      const properties = input.properties ?? {};
      const required = new Set(input.required ?? []);
      for (const [name, schema] of Object.entries(properties)) {
        const { description, ...rest } = schema;
        parameters.push({
          name,
          in: 'query',
          required: required.has(name),
          schema: rest,
          ...(description ? { description } : {}),
          ...(nested(rest) ? { style: 'deepObject', explode: true } : {}),
        });
      }
    } else {
      const schema = components.inline(doc.input);
      // Nested fields of a form have bracket keys (`auth[user]`, `pieces[0][weight]`; docs/reference.md#authentication endpoint).
      const encoding = Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([, prop]) => nested(prop))
          .map(([name]): [string, EncodingObject] => [name, { style: 'deepObject', explode: true }]),
      );
      op.requestBody = {
        description:
          'The parameters as JSON (recommended), as a form with bracket keys (`auth[user]`, `pieces[0][weight]`), or as query parameters: all three are merged (api.md, Endpoints 2).',
        required: false,
        content: {
          'application/json': { schema },
          'application/x-www-form-urlencoded': { schema, ...(Object.keys(encoding).length ? { encoding } : {}) },
        },
      };
    }
  }
  if (parameters.length) op.parameters = parameters;
  const errorAnswer = (description: string): ResponseObject => ({
    description,
    content: media
      ? { [media.errorType ?? media.types[0]!]: { schema: components.inline(media.error) } }
      : { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });
  const answers: Record<string, ResponseObject> = {};
  if (media) {
    const schema = components.inline(doc.data ?? Type.Unknown());
    answers[200] = {
      description: `The ${media.types.join(', ')} document${media.types.length > 1 ? ', as its Content-Type says' : ''}.`,
      content: Object.fromEntries(media.types.map((type) => [type, { schema }])),
    };
  } else {
    // A named success per operation, so that the discriminator can map `status` to it.
    const success = components.add(`${capital(operationId)}Success`, successEnvelope(doc.data, operationId));
    const error = '#/components/schemas/ErrorEnvelope';
    answers[200] = {
      description:
        'The envelope: `status` = `success` with `data`, or `status` = `error` with `message` and `code` (a functional failure).',
      content: {
        'application/json': {
          schema: {
            oneOf: [{ $ref: success }, { $ref: error }],
            discriminator: { propertyName: 'status', mapping: { success, error } },
          },
        },
      },
    };
  }
  if (doc.links) {
    const links: Record<string, LinkObject> = {};
    for (const [name, link] of Object.entries(doc.links)) {
      const target = byRoute.get(link.to);
      // A link to an operation that is not described is a mistake of the code, found by the document's tests.
      if (!target) throw new Error(`link ${name} of ${operationId}: no operation ${link.to}`);
      links[name] = {
        operationId: target,
        description: link.description,
        parameters: link.parameters,
        ...(link.requestBody === undefined ? {} : { requestBody: link.requestBody }),
      };
    }
    answers[200]!.links = links;
  }
  if (user) answers[401] = errorAnswer('Token missing, invalid or from the other environment.');
  if (pathNames.length)
    answers[404] = errorAnswer(`Missing or not visible to the caller (indistinguishable)${media ? '' : '; `data` is an empty array'}.`);
  // The router refuses an over-long path parameter before any route runs (kernel/http.tsx), in the envelope where
  // the route's failures are the envelope (a download); ONE Record answers those 404.
  if (pathNames.length && (!media || media.errorType === 'application/json'))
    answers[414] = errorAnswer('A path parameter is longer than 500 characters.');
  if (method !== 'get') {
    answers[400] = errorAnswer('The body could not be parsed (malformed JSON).');
    answers[413] = errorAnswer('The body is larger than the endpoint accepts.');
  }
  for (const [code, description] of Object.entries(doc.answers ?? {})) {
    if (code === '302') {
      answers[code] = {
        description,
        headers: { Location: { schema: { type: 'string' }, description: 'an HTML page; clients must not follow it (api.md, Errors)' } },
      };
    } else {
      answers[code] = errorAnswer(description);
      if (code === '429')
        answers[code].headers = {
          'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'seconds until an attempt may succeed again' },
        };
    }
  }
  op.responses = answers;
  if (doc.preview) op['x-preview'] = true;
  return op;
}

const RECORDED = 'Recorded from a test run (npm run examples:generate)';
const RECORDED_EVENT = 'Delivered in a test run (npm run examples:generate): the exact body, as its recipient company receives it';

/** The recorded request (body, query and path values) and 200 answer of an operation, as its Example Objects. */
function attachExample(op: OperationObject, at: string, example: RecordedExample): void {
  const names = [...at.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${at.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`);
  const values = pattern.exec(example.url)?.slice(1) ?? [];
  const pathValues = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
  for (const parameter of op.parameters ?? []) {
    const value =
      parameter.in === 'path' ? pathValues[parameter.name] : parameter.in === 'query' ? example.request?.[parameter.name] : undefined;
    if (value === undefined || value === '') continue;
    const typed = parameter.schema.type === 'integer' || parameter.schema.type === 'number' ? Number(value) : value;
    parameter.examples = { recorded: { summary: RECORDED, value: Number.isNaN(typed) ? value : typed } };
  }
  // The same parameters as a form: its value is the object the encoding writes with bracket keys.
  if (example.request && example.method !== 'get')
    for (const media of Object.values(op.requestBody?.content ?? {}))
      media.examples = { recorded: { summary: RECORDED, value: example.request } };
  const answer = Object.values(op.responses?.['200']?.content ?? {})[0];
  if (answer && example.response !== undefined) answer.examples = { recorded: { summary: RECORDED, value: example.response } };
}

/** What every operation's description says beyond its summary: its own text, who may call it, where its payload is. */
function operationDescription({ doc, auth, media }: Described): string {
  const parts = doc.description ? [doc.description] : [];
  parts.push(
    auth === 'user'
      ? 'Needs the API token: `Authorization: TokenPass <API_TOKEN>` (or `auth_token`); without a valid one the answer is 401.'
      : 'Public: no token needed.',
  );
  if (!media) {
    const keys = doc.data && !doc.data.$id && doc.data.type === 'object' ? Object.keys(doc.data.properties ?? {}) : [];
    const named = typeof doc.data?.$id === 'string' ? `\`data\` is a ${doc.data.$id} itself` : '`data` is the payload';
    const payload = keys.length ? `\`data\` holds ${keys.map((k) => `\`${k}\``).join(', ')}` : named;
    parts.push(`On success ${payload}; a functional failure is 200 with \`status\` = \`error\` and a \`message\`.`);
  }
  if (doc.preview) parts.push('Preview (api.md, Versioning 2): its shape may change without notice.');
  return parts.join('\n\n');
}

/**
 * Operation ids from the paths' words (`getFreightsView`); where two paths give the same, the one
 * ending in a parameter takes it as well (`postNotificationsReadById`, `…LogisticsEventsByEvent`),
 * whatever order they were registered in; any still alike are numbered.
 */
function operationIds(described: readonly Described[]): string[] {
  const base = described.map(({ method, path }) => {
    const words = path
      .split('/')
      .filter((w) => w && !w.startsWith(':'))
      .flatMap((w) => w.split(/[-_]/));
    return method + (words.length ? words : ['index']).map(capital).join('');
  });
  const count = new Map<string, number>();
  for (const id of base) count.set(id, (count.get(id) ?? 0) + 1);
  const seen = new Map<string, number>();
  return described.map(({ path }, i) => {
    const last = /:(\w+)$/.exec(path)?.[1];
    const id = count.get(base[i]!)! > 1 && last ? `${base[i]}By${capital(last)}` : base[i]!;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n > 1 ? `${id}${n}` : id;
  });
}

const TAGS: Record<string, string> = {
  users: 'accounts',
  '': 'accounts',
  routes: 'shipments',
  cdr: 'cases',
  tours: 'tms',
};

function tagOf(path: string): string {
  const first = path.split('/')[1] ?? '';
  return TAGS[first] ?? first;
}

/** Standard Webhooks (docs/reference.md#events): the headers of every delivery. */
const EVENT_HEADERS: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^evt_' },
    description: 'The event’s id (`id` of the body), the same on every retry of it: drop one already handled.',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'integer' },
    description: 'Unix seconds of this attempt; refuse one far from your clock (a replay).',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^v1,' },
    description:
      '`v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed by the base64-decoded part of the webhook’s secret after `whsec_` (Standard Webhooks); space-separated when several.',
  },
];

const EVENT_DELIVERY =
  'Delivered as a POST of the JSON event, signed (Standard Webhooks), at least once: a 2xx ends it; anything else, or no answer in time, is retried with growing delays for at least 24 hours, with the same `webhook-id`.';

/** One event type as the OpenAPI 3.1 `webhooks` entry: the POST a subscriber receives, with a recorded delivery when there is one. */
function eventOperation(type: string, doc: EventDoc, components: Components, example: unknown): OperationObject {
  const schema = components.add(
    `${pascal(type)}Event`,
    Type.Object(
      {
        id: Type.String({ pattern: '^evt_', description: 'the event id, also sent as webhook-id' }),
        type: Type.Literal(type),
        created: timestamp('when it happened: YYYY-MM-DD HH:MM:SS, application time zone'),
        company: Type.Integer({ description: 'the recipient company: data is as that company sees it through the API' }),
        data: doc.data,
      },
      { description: `The \`${type}\` event: ${doc.summary}` },
    ),
  );
  return {
    operationId: `on${pascal(type)}`,
    summary: doc.summary,
    description: `Sent to: ${doc.recipients}\n\n${EVENT_DELIVERY}`,
    tags: ['events'],
    security: [],
    parameters: EVENT_HEADERS,
    requestBody: {
      description: 'The event.',
      required: true,
      content: {
        'application/json': {
          schema: { $ref: schema },
          ...(example === undefined ? {} : { examples: { recorded: { summary: RECORDED_EVENT, value: example } } }),
        },
      },
    },
    responses: {
      '2XX': { description: 'Received: the delivery ends.' },
      '4XX': { description: 'Refused: retried later with the same webhook-id (as any answer but a 2xx).' },
    },
  };
}

/**
 * Schemas with an `$id` (Freight, Bid, Rate, …) become components, referenced wherever they
 * appear; TypeBox's own markers (symbols) are dropped.
 */
class Components {
  readonly schemas: Record<string, SchemaObject> = {};

  /** Adds a named schema; answers its reference. */
  add(name: string, schema: TSchema): string {
    this.schemas[name] = this.inline({ ...schema, $id: undefined } as TSchema);
    return `#/components/schemas/${name}`;
  }
  /** The schema as JSON, its named parts moved to the components: a JSON Schema object again. */
  inline(schema: TSchema): SchemaObject {
    return this.walk(JSON.parse(JSON.stringify(schema))) as SchemaObject;
  }

  private walk(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.walk(n));
    if (!node || typeof node !== 'object') return node;
    const obj = node as Json;
    if (typeof obj.$ref === 'string' && !obj.$ref.startsWith('#')) return { ...obj, $ref: `#/components/schemas/${obj.$ref}` };
    if (typeof obj.$id === 'string') {
      const { $id, ...rest } = obj;
      if (!(($id as string) in this.schemas)) {
        this.schemas[$id as string] = {}; // reserved first: a schema may refer to itself
        this.schemas[$id as string] = this.walk(rest) as SchemaObject;
      }
      return { $ref: `#/components/schemas/${$id}` };
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(obj)) out[k] = this.walk(v);
    return out;
  }
}

const CONVENTIONS = `The JSON API of a self-hosted freight exchange, compatible with clients of api.md 1.0.0.

Conventions that hold for every endpoint:
- Every path ends in \`.json\`; the same path without it is the HTML interface.
- Query parameters, form fields (bracket keys such as \`auth[user]\`, \`pieces[0][weight]\`) and a JSON body are one set of parameters; the body wins.
- Every answer is the envelope: \`data\`, \`status\` (\`success\` or \`error\`), \`auth\` (the caller), and \`message\` with \`code\` on errors (\`code\` is stable, for programs: see ErrorCode), \`warnings\` where ignored input is reported.
- A functional failure is 200 with \`status\` = \`error\`. Unknown or unreadable fields on create and edit are ignored (named in \`warnings\`), never an error.
- 401: token missing or invalid. 404 (\`data\` = \`[]\`): missing or not visible, indistinguishable.
- Some answers are 302 to an HTML page (publish, confirm, refusals): clients must not follow redirects; verify with the GET the endpoint names.
- Timestamps are \`YYYY-MM-DD HH:MM:SS\` in the server's time zone, without zone. Money is exact to the cent, weights to the gram.
- Lists take \`page\`, \`limit\` (at most 100), \`sort\`, \`direction\`; the last page is the first one shorter than \`limit\`.
- A list (every \`.json\` GET that takes \`limit\`) ignores a query parameter it does not take, and one whose value it cannot read (\`limit=ten\`, \`weight_min=heavy\`, \`sort=Routes.price\`), and names each in \`warnings\` with the reason: the answer is the list without it, never an error.
- Operations link to what a client calls next with their answer (OpenAPI \`links\`): a created freight to its view, edit and publish; a bid to its confirmation.
- Endpoints marked \`x-preview\` (file push, shipments, milk-run, TMS, cases) may change without notice.`;
