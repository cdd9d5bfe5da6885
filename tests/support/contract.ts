import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, any>;

/**
 * Checks real answers against the API description the server serves (GET /openapi.json), so
 * the description cannot drift from what the code answers.
 */
export class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {}

  /** The operation of a request path (`/freights/view/12.json`), or undefined. */
  operation(method: string, url: string): { path: string; op: Json } | undefined {
    const pathname = url.split('?')[0]!;
    for (const [path, ops] of Object.entries(this.doc.paths as Record<string, Json>)) {
      const pattern = new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`);
      if (pattern.test(pathname) && ops[method.toLowerCase()]) return { path, op: ops[method.toLowerCase()] };
    }
    return undefined;
  }

  /** Problems of an answer against its declared schema (empty: it conforms). */
  check(method: string, url: string, status: number, body: unknown): string[] {
    const found = this.operation(method, url);
    if (!found) return [`${method} ${url}: not in the API description`];
    const answer = (found.op.responses as Json)[String(status)];
    if (!answer) return [`${method} ${found.path}: answer ${status} not described`];
    const schema = answer.content?.['application/json']?.schema;
    if (!schema) return [];
    const key = `${method} ${found.path} ${status}`;
    const validate = this.compiled.get(key) ?? this.ajv.compile({ ...schema, components: this.doc.components });
    this.compiled.set(key, validate);
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 8).map((e) => `${key}: ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** Problems of a delivered event (its JSON body) against the description's `webhooks` entry of its type (empty: it conforms). */
  checkEvent(body: Json): string[] {
    const schema = this.doc.webhooks?.[body.type]?.post?.requestBody?.content?.['application/json']?.schema;
    if (!schema) return [`event ${body.type}: not in the API description's webhooks`];
    const key = `event ${body.type}`;
    const validate = this.compiled.get(key) ?? this.ajv.compile({ ...schema, components: this.doc.components });
    this.compiled.set(key, validate);
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 8).map((e) => `${key}: ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}
