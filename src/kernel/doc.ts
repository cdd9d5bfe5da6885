import type { TSchema } from '@sinclair/typebox';

/**
 * What an endpoint tells the API description (src/openapi, GET /openapi.json) about itself,
 * next to the code that implements it. Schemas are JSON Schema (TypeBox); the resource
 * schemas come from the modules' field tables, so the description follows the code.
 */
export interface EndpointDoc {
  summary: string;
  description?: string;
  /** Group in the reference; by default the path's first segment. */
  tag?: string;
  /** Path parameters by name (`:id` in the path). */
  path?: Record<string, TSchema>;
  /** The parameters: query string, form or JSON body alike (docs/reference.md#conventions item 2). */
  input?: TSchema;
  /** `data` of a successful answer (`status` = `success`). */
  data?: TSchema;
  /** Answers beyond the contract's usual ones, with their meaning here (302 on publish, 406, 429…). */
  answers?: Record<number, string>;
  /** Part of docs/reference.md#the-api's preview group (may change without notice). */
  preview?: boolean;
  /**
   * What a client can do next with the answer (OpenAPI `links` of the 200 answer): the operation
   * by method and path as registered (`GET /freights/view/:id`), and where each of its parameters
   * (and body) comes from in this answer (`$response.body#/data/id`).
   */
  links?: Record<string, EndpointLink>;
}

export interface EndpointLink {
  /** `METHOD /path/:param`, as the endpoint is registered */
  to: string;
  description: string;
  parameters: Record<string, string>;
  requestBody?: unknown;
}
