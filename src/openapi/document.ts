import { Type, type TSchema } from '@sinclair/typebox';
import type { EndpointDoc } from '../kernel/doc.ts';
import type { Endpoint } from '../kernel/route.tsx';

/**
 * The OpenAPI 3.1 description of every JSON endpoint (shared decisions §10), generated from
 * the route table the server runs: each endpoint's method, path and authentication, and its
 * `doc` (schemas from the modules' field tables), and the routes outside the envelope that
 * describe themselves (ONE Record). Nothing here is maintained by hand but the texts about the
 * contract's conventions.
 */

/**
 * What a route registered on Fastify itself, outside the kernel's envelope (ONE Record's
 * JSON-LD), says about itself in its route config as `openapi`: every answer, success or
 * failure, is a `mediaType` document, a failure's shaped `error`; `doc.data` is the whole answer.
 */
export interface MediaRouteDoc {
  auth: 'user' | 'public';
  doc: EndpointDoc;
  mediaType: string;
  error: TSchema;
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
  /** answers outside the envelope: their media type and the body of a failure */
  media?: { type: string; error: TSchema };
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

export interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: SchemaObject;
  description?: string;
  style?: 'deepObject';
  explode?: boolean;
}

export interface MediaObject {
  schema: SchemaObject;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaObject>;
  headers?: Record<string, { schema: SchemaObject; description: string }>;
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

/** The OpenAPI 3.1 document as buildOpenApiDocument writes it. */
export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect: string;
  info: { title: string; version: string; summary: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, SchemaObject>; securitySchemes: Record<string, Record<string, string>> };
}

type Json = Record<string, unknown>;

const ERROR_DATA = Type.Union([Type.Array(Type.Never(), { maxItems: 0 }), Type.Unknown()], {
  description: 'an empty array, or what the endpoint says',
});

/** The envelope of every JSON answer (api.md, Response envelope), as reusable components. */
const COMPONENT_SCHEMAS: Record<string, TSchema> = {
  Auth: Type.Union(
    [
      Type.Object({
        email: Type.String(),
        token: Type.String({ description: 'the API token (api.md, Authentication)' }),
        language: Type.String({ description: 'three-letter language code: eng or deu' }),
      }),
      Type.Object({}, { additionalProperties: false, description: 'anonymous or failed authentication' }),
    ],
    { description: 'repeats the caller' },
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

function successEnvelope(data: TSchema | undefined): TSchema {
  return Type.Object({
    data: data ?? Type.Unknown(),
    status: Type.Literal('success'),
    auth: Type.Ref('Auth'),
    warnings: Type.Optional(Type.Array(Type.Ref('Warning'))),
  });
}

export interface DocumentOptions {
  version: string;
  /** Every code of an error answer -> its meaning (app.ts ERROR_CODES): the ErrorCode schema. */
  errorCodes: Readonly<Record<string, string>>;
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
  components.schemas.ErrorCode = errorCodeSchema(options.errorCodes);
  const paths: Record<string, Record<string, OperationObject>> = {};
  const operationIds = new Set<string>();
  const describe = (at: string, d: Described) => {
    const operations = paths[at] ?? {};
    paths[at] = operations;
    operations[d.method] = operation(d, components, operationIds);
  };
  for (const endpoint of endpoints) {
    if (endpoint.spec.json === false) continue;
    const { path, doc } = endpoint.spec;
    const at = `${path === '/' ? '/index' : openApiPath(path)}.json`;
    for (const method of [endpoint.spec.method].flat())
      describe(at, { method: method.toLowerCase(), path, auth: endpoint.auth, doc: doc ?? { summary: `${method.toUpperCase()} ${path}` } });
  }
  for (const route of mediaRoutes) {
    const { method, path, auth, doc, mediaType, error } = route;
    describe(openApiPath(path), { method: method.toLowerCase(), path, auth, doc, media: { type: mediaType, error } });
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Freight Exchange, Rate Search and Quotes API',
      version: options.version,
      summary: 'Freights, bids, rate search and the preview endpoints of a self-hosted freight exchange.',
      description: CONVENTIONS,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'this server' }],
    tags: [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((o) => o.tags)))].sort().map((name) => ({ name })),
    paths,
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

function operation(described: Described, components: Components, operationIds: Set<string>): OperationObject {
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
    operationId: operationId(method, described.path, operationIds),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag ?? tagOf(described.path)],
    security: user ? [{ TokenPass: [] }, { auth_token: [] }] : [],
  };
  if (doc.input) {
    if (method === 'get') {
      const input = components.inline(doc.input);
      const properties = input.properties ?? {};
      const required = new Set(input.required ?? []);
      for (const [name, schema] of Object.entries(properties)) {
        const { description, ...rest } = schema;
        const nested = rest.type === 'object' || rest.type === 'array';
        parameters.push({
          name,
          in: 'query',
          required: required.has(name),
          schema: rest,
          ...(description ? { description } : {}),
          ...(nested ? { style: 'deepObject', explode: true } : {}),
        });
      }
    } else {
      const schema = components.inline(doc.input);
      op.requestBody = {
        description:
          'The parameters as JSON (recommended), as a form with bracket keys (`pieces[0][weight]`), or as query parameters: all three are merged (api.md, Endpoints 2).',
        required: false,
        content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
      };
    }
  }
  if (parameters.length) op.parameters = parameters;
  const errorAnswer = (description: string): ResponseObject => ({
    description,
    content: media
      ? { [media.type]: { schema: components.inline(media.error) } }
      : { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });
  const answers: Record<string, ResponseObject> = {
    200: media
      ? { description: `The ${media.type} document.`, content: { [media.type]: { schema: components.inline(doc.data ?? Type.Unknown()) } } }
      : {
          description:
            'The envelope: `status` = `success` with `data`, or `status` = `error` with `message` and `code` (a functional failure).',
          content: {
            'application/json': {
              schema: {
                oneOf: [components.inline(successEnvelope(doc.data)), { $ref: '#/components/schemas/ErrorEnvelope' }],
                discriminator: { propertyName: 'status' },
              },
            },
          },
        },
  };
  if (user) answers[401] = errorAnswer('Token missing, invalid or from the other environment.');
  if (pathNames.length)
    answers[404] = errorAnswer(`Missing or not visible to the caller (indistinguishable)${media ? '' : '; `data` is an empty array'}.`);
  if (method !== 'get') {
    answers[400] = errorAnswer('The body could not be parsed (malformed JSON).');
    answers[413] = errorAnswer('The body is larger than the endpoint accepts.');
  }
  for (const [code, description] of Object.entries(doc.answers ?? {})) {
    answers[code] =
      code === '302'
        ? {
            description,
            headers: { Location: { schema: { type: 'string' }, description: 'an HTML page; clients must not follow it (api.md, Errors)' } },
          }
        : errorAnswer(description);
  }
  op.responses = answers;
  if (doc.preview) op['x-preview'] = true;
  return op;
}

/**
 * `getFreightsView` from the path's words. A path that only adds a parameter to one described
 * before (`…/logistics-events/:event`) takes it as well: `…LogisticsEventsByEvent`.
 */
function operationId(method: string, path: string, taken: Set<string>): string {
  const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  const words = path
    .split('/')
    .filter((w) => w && !w.startsWith(':'))
    .flatMap((w) => w.split(/[-_]/));
  let id = method + (words.length ? words : ['index']).map(capital).join('');
  const last = /:(\w+)$/.exec(path)?.[1];
  if (taken.has(id) && last) id += `By${capital(last)}`;
  taken.add(id);
  return id;
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

/**
 * Schemas with an `$id` (Freight, Bid, Rate, …) become components, referenced wherever they
 * appear; TypeBox's own markers (symbols) are dropped.
 */
class Components {
  readonly schemas: Record<string, SchemaObject> = {};

  add(name: string, schema: TSchema): void {
    this.schemas[name] = this.inline({ ...schema, $id: undefined } as TSchema);
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
- Endpoints marked \`x-preview\` (file push, shipments, milk-run, TMS, cases) may change without notice.`;
