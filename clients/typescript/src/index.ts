import createFetchClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

/**
 * A typed client of the freight-exchange JSON API. Every endpoint of the server's OpenAPI
 * description is callable with its types (`client.get`, `client.post`); the envelope is
 * unwrapped (the result is `data`), `status: error` and refusals throw FreightExchangeError,
 * and the contract's quirks are handled where they bite: publish and confirm answer 302, so
 * `publish()` and `confirm()` follow with the GET the contract prescribes and return the outcome.
 */

export type { components, paths };
export type Freight = components['schemas']['Freight'];
export type Bid = components['schemas']['Bid'];
export type Rate = components['schemas']['Rate'];
export type Warning = components['schemas']['Warning'];
/** The stable code of an error answer (every code with its meaning: the description's ErrorCode). */
export type ErrorCode = components['schemas']['ErrorCode'];

type Method = 'get' | 'post';
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never }[keyof paths];
type Operation<P extends keyof paths, M extends Method> = paths[P][M] extends infer O
  ? O extends { responses: unknown }
    ? O
    : never
  : never;
type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type Answer<P extends keyof paths, M extends Method> = Json<Operation<P, M>['responses'] extends { 200: infer R } ? R : never>;
/** `data` of a successful answer of that endpoint. */
export type Data<P extends keyof paths, M extends Method> =
  Extract<Answer<P, M>, { status: 'success' }> extends { data: infer D } ? D : never;

type Params<O> = O extends { parameters: infer X } ? X : never;
type PathParams<O> = Params<O> extends { path: infer T } ? (T extends Record<string, unknown> ? T : never) : never;
type QueryParams<O> = Params<O> extends { query?: infer T } ? T : never;
type Body<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** What a call sends: path parameters, query and (POST) body, as the description types them. */
export interface CallOptions<O> {
  path?: PathParams<O>;
  query?: QueryParams<O>;
  body?: Body<O>;
}

/** A refused call: `status: error` (200), 401, 404, 429, 4xx, or a redirect where none was expected. */
export class FreightExchangeError extends Error {
  constructor(
    message: string,
    /** The HTTP status (200 for a functional failure). */
    readonly httpStatus: number,
    /** The envelope, when the answer had one. */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'FreightExchangeError';
  }

  get notFound(): boolean {
    return this.httpStatus === 404;
  }

  /** The answer's stable `code` (decide by it, not by the message); none for a redirect. */
  get code(): ErrorCode | undefined {
    const code = (this.body as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? (code as ErrorCode) : undefined;
  }
}

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** An API token (otherwise call `login`). */
  token?: string;
  /** Sent as User-Agent, as api.md asks: `<software> / <version>`. */
  userAgent?: string;
  fetch?: typeof fetch;
}

/** A document's file as GET /freights/document/{id} answers it: the exact bytes, its media type and its name. */
export interface DownloadedDocument {
  bytes: Uint8Array;
  /** application/pdf, image/jpeg or image/png (what its first bytes said) */
  type: string;
  /** the file name (Content-Disposition's UTF-8 name) */
  name: string;
}

export interface Result<D> {
  data: D;
  /** Fields the server ignored, and why (create, edit). */
  warnings: Warning[];
}

export class FreightExchange {
  private token: string | undefined;
  private readonly api;

  constructor(options: ClientOptions) {
    this.token = options.token;
    this.api = createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/$/, ''), fetch: options.fetch, redirect: 'manual' });
    const auth: Middleware = {
      onRequest: ({ request }) => {
        if (this.token) request.headers.set('authorization', `TokenPass ${this.token}`);
        request.headers.set('user-agent', options.userAgent ?? 'freight-exchange-client / 1.0.0');
        return request;
      },
    };
    this.api.use(auth);
  }

  /** Logs in and keeps the token for the following calls (it does not expire: log in once). */
  async login(user: string, password: string): Promise<string> {
    const res = await this.raw('post', '/users/login.json', { body: { auth: { user, password } } });
    const token = (res.body as { auth?: { token?: string } }).auth?.token;
    if (!token) throw new FreightExchangeError('login answered no token', res.status, res.body);
    this.token = token;
    this.companyId = undefined;
    return token;
  }

  /** A GET of any endpoint; answers its `data`. */
  async get<P extends PathsWith<'get'>>(path: P, options: CallOptions<Operation<P, 'get'>> = {}): Promise<Data<P, 'get'>> {
    return (await this.call('get', path, options)).data;
  }

  /** A POST of any endpoint; answers its `data` (a 302 throws: use publish and confirm for those). */
  async post<P extends PathsWith<'post'>>(path: P, options: CallOptions<Operation<P, 'post'>> = {}): Promise<Data<P, 'post'>> {
    return (await this.call('post', path, options)).data;
  }

  /** Like get/post, with the warnings the server returned (which fields it ignored). */
  async call<P extends keyof paths, M extends Method>(
    method: M,
    path: P,
    options: CallOptions<Operation<P, M>> = {},
  ): Promise<Result<Data<P, M>>> {
    const res = await this.raw(method, path, options);
    if (res.status >= 300 && res.status < 400)
      throw new FreightExchangeError(`redirected to ${res.location} (treat as failure, api.md)`, res.status);
    const body = res.body as { status?: string; data?: unknown; message?: string; warnings?: Warning[] } | undefined;
    if (res.status !== 200 || body?.status !== 'success')
      throw new FreightExchangeError(body?.message ?? `HTTP ${res.status}`, res.status, body);
    return { data: body.data as Data<P, M>, warnings: body.warnings ?? [] };
  }

  /**
   * Publishes a draft. The contract answers 302 whether or not it worked and prescribes a GET:
   * this reads the freight before (a draft) and after (open), returns it, and throws otherwise.
   */
  async publish(id: number, options: { visibility?: number; whitelist?: number[]; deadline?: string } = {}): Promise<Freight> {
    // Only a draft can be published; an open freight would read as "open" after a refused publish.
    const before = (await this.get('/freights/view/{id}.json', { path: { id } })).route;
    if (before.status !== 'draft') throw new FreightExchangeError(`publish refused: the freight is ${before.status}`, 200);
    const res = await this.raw('post', '/freights/view/{id}.json', { path: { id }, body: { action: 'publish', ...options } });
    if (res.status !== 302 && res.status !== 200)
      throw new FreightExchangeError((res.body as { message?: string })?.message ?? `HTTP ${res.status}`, res.status, res.body);
    const { route } = await this.get('/freights/view/{id}.json', { path: { id } });
    if (route.status !== 'open') throw new FreightExchangeError(`publish refused: the freight is ${route.status}`, res.status);
    return route;
  }

  /**
   * Confirms a bid as owner or bidder. The second side's confirmation awards (200); the first
   * stage, or a confirmation that is not permitted, is a 302 to the freight page: this follows
   * it with GET /freights/view and tells which happened.
   */
  async confirm(bidId: number): Promise<{ awarded: boolean; freight: Freight }> {
    const res = await this.raw('post', '/quotes/confirm/{id}.json', { path: { id: bidId } });
    if (res.status === 200) {
      const body = res.body as { status: string; data: { route: number }; message?: string };
      if (body.status !== 'success') throw new FreightExchangeError(body.message ?? 'confirm refused', 200, body);
      return { awarded: true, freight: (await this.get('/freights/view/{id}.json', { path: { id: body.data.route } })).route };
    }
    const freightId = Number(/\/freights\/view\/(\d+)/.exec(res.location ?? '')?.[1]);
    if (res.status !== 302 || !freightId)
      throw new FreightExchangeError((res.body as { message?: string })?.message ?? `HTTP ${res.status}`, res.status, res.body);
    const { route: freight } = await this.get('/freights/view/{id}.json', { path: { id: freightId } });
    const bid = freight._bids?.find((b) => b.id === bidId);
    if (freight.status === 'taken' && bid?.status === 'accepted') return { awarded: true, freight };
    // Waiting for the other side (this side's confirmation stands) is success; anything else a refusal.
    const me = await this.company();
    const mine = freight.company === me ? bid?.owner_confirmed : bid?.bidder_confirmed;
    if (!['open', 'pending'].includes(freight.status) || bid?.status !== 'pending' || !mine)
      throw new FreightExchangeError('confirm refused', 302);
    return { awarded: false, freight };
  }

  /**
   * A document of a freight (GET /freights/document/{id}): its exact bytes, not the JSON
   * envelope, so not through get/call (which read JSON). Refusals (401, 404) throw
   * FreightExchangeError like every other call.
   */
  async download(id: number): Promise<DownloadedDocument> {
    const { data, error, response } = await this.api.GET('/freights/document/{id}', {
      params: { path: { id } },
      parseAs: 'arrayBuffer',
    });
    if (!response.ok || !(data instanceof ArrayBuffer)) {
      const body = error as { message?: string } | undefined;
      throw new FreightExchangeError(body?.message ?? `HTTP ${response.status}`, response.status, body);
    }
    return {
      bytes: new Uint8Array(data),
      type: response.headers.get('content-type') ?? 'application/octet-stream',
      name: fileNameOf(response.headers.get('content-disposition')),
    };
  }

  private companyId: Promise<number> | undefined;

  /** The caller's company id (GET /users/me.json, once). */
  company(): Promise<number> {
    this.companyId ??= this.get('/users/me.json').then((d) => d.user.company.id);
    return this.companyId;
  }

  private async raw(method: Method, path: keyof paths, options: { path?: unknown; query?: unknown; body?: unknown }) {
    const init = { params: { path: options.path, query: options.query }, body: options.body } as never;
    const { data, error, response } = method === 'get' ? await this.api.GET(path as never, init) : await this.api.POST(path as never, init);
    // openapi-fetch parsed the JSON body (data for 2xx, error otherwise); a redirect has none.
    const json = (response.headers.get('content-type') ?? '').includes('application/json');
    const body: unknown = json ? (data ?? error) : undefined;
    return { status: response.status, body, location: response.headers.get('location') ?? undefined };
  }
}

/** The file name of a Content-Disposition header: its UTF-8 `filename*` (RFC 6266), else `filename`. */
function fileNameOf(header: string | null): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '')?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8);
    } catch {
      // an unreadable encoding: the plain name below
    }
  }
  return /filename="([^"]*)"/i.exec(header ?? '')?.[1] ?? '';
}
