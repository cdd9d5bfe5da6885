import type { ComponentChildren } from 'preact';
import type { Page } from '../kernel/html.tsx';
import type { Translate } from '../kernel/i18n.ts';
import type { OpenApiDocument, OperationObject, SchemaObject } from './document.ts';

/** `Freight`, `integer`, `array of Bid`, `"open" | "pending"`: a schema in a few words. */
function typeOf(schema: SchemaObject | undefined): ComponentChildren {
  if (!schema) return 'any';
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    return <a href={`#schema-${name}`}>{name}</a>;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = schema.anyOf ?? schema.oneOf;
  if (union)
    return join(
      union.map((s) => typeOf(s)),
      ' | ',
    );
  if (schema.type === 'array') return <>array of {typeOf(schema.items)}</>;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return schema.type ?? 'any';
}

function join(parts: ComponentChildren[], separator: string): ComponentChildren {
  return parts.flatMap((p, i) => (i ? [separator, p] : [p]));
}

/**
 * The Markdown the descriptions are written in: paragraphs, `- ` lists, `code`, **strong**,
 * *emphasis* (or _emphasis_ between words, never inside a name such as auth_token) and
 * [links](target). It builds elements, never HTML text: everything else is shown as the text it
 * is (preact escapes it, so `<IATA>` stays readable and no description can add markup), and a link
 * leads only to a path or anchor of this site or to an http(s) address, else it stays text.
 */
function Markdown({ text }: { text: string | undefined }) {
  if (!text) return null;
  const blocks: ComponentChildren[] = [];
  let items: string[] = [];
  let lines: string[] = [];
  const flush = () => {
    if (lines.length) blocks.push(<p>{inline(lines.join(' '))}</p>);
    if (items.length)
      blocks.push(
        <ul>
          {items.map((item) => (
            <li>{inline(item)}</li>
          ))}
        </ul>,
      );
    lines = [];
    items = [];
  };
  for (const line of text.split('\n')) {
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (item) {
      if (lines.length) flush();
      items.push(item[1]!);
    } else if (!line.trim()) flush();
    else if (items.length && /^\s+\S/.test(line)) items[items.length - 1] += ` ${line.trim()}`;
    else {
      if (items.length) flush();
      lines.push(line.trim());
    }
  }
  flush();
  return <>{blocks}</>;
}

const INLINE =
  /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|(?<![\p{L}\p{N}_])_([^_\s][^_]*)_(?![\p{L}\p{N}_])|\[([^\]]+)\]\(([^()\s]+)\)/gu;

/** Where a link of a description may lead: this site's paths and anchors, or the web. */
const safeTarget = (target: string) => /^(#[\w-]*|\/(?!\/)[^\s]*|https?:\/\/[^\s]+)$/i.test(target);

function inline(text: string): ComponentChildren {
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const [whole, code, strong, em, emUnderscore, label, target] = m;
    if (code !== undefined) out.push(<code>{code}</code>);
    else if (strong !== undefined) out.push(<strong>{inline(strong)}</strong>);
    else if (em !== undefined || emUnderscore !== undefined) out.push(<em>{inline(em ?? emUnderscore!)}</em>);
    else if (label !== undefined && safeTarget(target!)) out.push(<a href={target}>{inline(label)}</a>);
    else out.push(whole);
    at = m.index + whole.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** A one-line description (a summary, a property, an answer): its inline Markdown, no paragraph. */
const Inline = ({ text }: { text: string | undefined }) => <>{text ? inline(text) : null}</>;

/** The properties of an object schema as a table; nested objects indented below their property. */
function Properties({ schema, t, depth = 0 }: { schema: SchemaObject; t: Translate; depth?: number }) {
  const properties = Object.entries(schema.properties ?? {});
  if (!properties.length) return <p class="hint">{typeOf(schema)}</p>;
  const required = new Set(schema.required ?? []);
  return (
    <table class="schema">
      <tbody>
        {properties.map(([name, prop]) => (
          <tr>
            <td>
              <code>{name}</code>
              {required.has(name) && <span class="hint"> · {t('docs.required')}</span>}
            </td>
            <td>{typeOf(prop)}</td>
            <td>
              <Inline text={prop.description} />
              {depth < 2 && prop.type === 'object' && prop.properties && <Properties schema={prop} t={t} depth={depth + 1} />}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The recorded example of a media object or parameter (src/openapi/examples.json), if any. */
const recordedValue = (holder: { examples?: Record<string, { value: unknown }> } | undefined) => holder?.examples?.recorded?.value;

/** `'…'` for a shell: single quotes, an inner one written `'\''`. */
const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** A curl command of an operation, built from its recorded example: method, path (`.json`), the token header, the body. */
function curlOf(path: string, method: string, op: OperationObject): string {
  let url = path;
  const query: string[] = [];
  for (const p of op.parameters ?? []) {
    const value = recordedValue(p);
    if (value === undefined) continue;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(value))}`);
  }
  const lines = [
    `curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${shellQuote(`$BASE_URL${url}${query.length ? `?${query.join('&')}` : ''}`)}`,
  ];
  if (op.security.length) lines.push(`-H 'Authorization: TokenPass <API_TOKEN>'`);
  const body = recordedValue(op.requestBody?.content['application/json']);
  if (body !== undefined) lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(' \\\n  ');
}

/** An example value, pretty-printed in its own scrolling box. */
const Example = ({ value }: { value: unknown }) => (
  <pre class="example">
    <code>{JSON.stringify(value, null, 2)}</code>
  </pre>
);

export function referencePage(doc: OpenApiDocument, t: Translate): Page {
  const byTag = new Map<string, Array<{ path: string; method: string; op: OperationObject }>>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const tag = op.tags[0]!;
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ path, method, op });
    }
  }
  const tags = [...byTag.keys()].sort();
  // Each operation's success envelope is a component (named for the discriminator): shown at its operation, not again below.
  const successName = (op: OperationObject) => {
    const ref = op.responses?.['200']?.content?.['application/json']?.schema.oneOf?.[0]?.$ref;
    return ref?.split('/').pop();
  };
  const envelopes = new Set([...byTag.values()].flat().map(({ op }) => successName(op)));
  const schemas = Object.entries(doc.components.schemas).filter(([name]) => !envelopes.has(name));
  // The machine-readable error codes, when the document lists them (an enum with a Markdown description).
  const errorCodes = doc.components.schemas.ErrorCode?.enum ? doc.components.schemas.ErrorCode : undefined;
  const events = Object.entries(doc.webhooks ?? {});
  return {
    title: t('docs.title'),
    body: (
      <section class="reference">
        <h1>{t('docs.title')}</h1>
        <p>
          {t('docs.intro')}
          <a href="/openapi.json">/openapi.json</a> (OpenAPI {String(doc.openapi)})
        </p>
        <section id="authentication" aria-labelledby="authentication-title">
          <h2 id="authentication-title">{t('docs.auth.title')}</h2>
          <p>{t('docs.auth.login')}</p>
          <pre class="example">
            <code>
              {`curl -X POST "$BASE_URL/users/login.json" \\\n  -H 'Content-Type: application/json' \\\n  -d '{"auth": {"user": "you@example.com", "password": "<PASSWORD>"}}'`}
            </code>
          </pre>
          <p>{t('docs.auth.header')}</p>
          <pre class="example">
            <code>{'Authorization: TokenPass <API_TOKEN>'}</code>
          </pre>
          <p>{t('docs.auth.query')}</p>
        </section>
        <div class="conventions">
          <Markdown text={doc.info.description} />
        </div>
        {/* A list, so the links stand apart (and are read as items) however the stylesheet lays them out. */}
        <nav aria-label={t('docs.contents')}>
          <ul class="toc">
            {tags.map((tag) => (
              <li>
                <a href={`#tag-${tag}`}>{tag}</a>
              </li>
            ))}
            {Object.keys(doc.webhooks ?? {}).length > 0 && (
              <li>
                <a href="#events">{t('docs.events')}</a>
              </li>
            )}
            {errorCodes && (
              <li>
                <a href="#error-codes">{t('docs.errors')}</a>
              </li>
            )}
            <li>
              <a href="#schemas">{t('docs.schemas')}</a>
            </li>
          </ul>
        </nav>
        {tags.map((tag) => (
          <section id={`tag-${tag}`}>
            <h2>{tag}</h2>
            {byTag.get(tag)!.map(({ path, method, op }) => {
              const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
              const body = op.requestBody?.content['application/json']?.schema;
              const success = op.responses?.['200']?.content ?? {};
              const name = successName(op);
              const ok = name ? doc.components.schemas[name] : undefined;
              // An answer outside the envelope (ONE Record's JSON-LD): the document itself.
              const [mediaType, document] = ok ? [] : (Object.entries(success)[0] ?? []);
              return (
                <article class="operation" id={String(op.operationId)}>
                  <h3>
                    <span class={`method ${method}`}>{method.toUpperCase()}</span> <code>{path}</code>
                    {op['x-preview'] && <span class="badge">{t('docs.preview')}</span>}
                  </h3>
                  <p>
                    <Inline text={String(op.summary)} />{' '}
                    <span class="hint">· {op.security.length ? t('docs.token') : t('docs.public')}</span>
                  </p>
                  {op.description && <Markdown text={String(op.description)} />}
                  {params.length > 0 && (
                    <>
                      <h4>{t('docs.parameters')}</h4>
                      <table class="schema">
                        <tbody>
                          {params.map((p) => (
                            <tr>
                              <td>
                                <code>{p.name}</code> <span class="hint">{p.in}</span>
                                {p.required && <span class="hint"> · {t('docs.required')}</span>}
                              </td>
                              <td>{typeOf(p.schema)}</td>
                              <td>
                                <Inline text={p.description} />
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </>
                  )}
                  {body && (
                    <>
                      <h4>{t('docs.body')}</h4>
                      <Properties schema={body} t={t} />
                    </>
                  )}
                  {ok?.properties?.data && (
                    <>
                      <h4>{t('docs.answer')}</h4>
                      {ok.properties.data.type === 'object' ? (
                        <Properties schema={ok.properties.data} t={t} />
                      ) : (
                        <p>{typeOf(ok.properties.data)}</p>
                      )}
                    </>
                  )}
                  {document && (
                    <>
                      <h4>
                        {t('docs.document')} <span class="hint">({mediaType})</span>
                      </h4>
                      <p>{typeOf(document.schema)}</p>
                    </>
                  )}
                  <h4>{t('docs.curl')}</h4>
                  <pre class="example">
                    <code>{curlOf(path, method, op)}</code>
                  </pre>
                  {recordedValue(op.requestBody?.content['application/json']) !== undefined && (
                    <details>
                      <summary>{t('docs.requestExample')}</summary>
                      <Example value={recordedValue(op.requestBody?.content['application/json'])} />
                    </details>
                  )}
                  {recordedValue(Object.values(success)[0]) !== undefined && (
                    <details>
                      <summary>{t('docs.responseExample')}</summary>
                      <Example value={recordedValue(Object.values(success)[0])} />
                    </details>
                  )}
                  <h4>{t('docs.answers')}</h4>
                  <ul class="answers">
                    {Object.entries(op.responses ?? {}).map(([code, answer]) => (
                      <li>
                        <code>{code}</code> <Inline text={String(answer.description)} />
                      </li>
                    ))}
                  </ul>
                </article>
              );
            })}
          </section>
        ))}
        {events.length > 0 && (
          <section id="events">
            <h2>{t('docs.events')}</h2>
            <p>{t('docs.events.intro')}</p>
            {events.map(([type, { post }]) => {
              const body = post.requestBody?.content['application/json'];
              const ref = body?.schema.$ref;
              const event = ref ? doc.components.schemas[String(ref).split('/').pop()!] : undefined;
              return (
                <article class="operation" id={`event-${type}`}>
                  <h3>
                    <code>{type}</code>
                  </h3>
                  <p>
                    <Inline text={post.summary} />
                  </p>
                  <Markdown text={post.description} />
                  {event?.properties?.data && (
                    <>
                      <h4>{t('docs.events.data')}</h4>
                      {event.properties.data.type === 'object' ? (
                        <Properties schema={event.properties.data} t={t} />
                      ) : (
                        <p>{typeOf(event.properties.data)}</p>
                      )}
                    </>
                  )}
                  {recordedValue(body) !== undefined && (
                    <details>
                      <summary>{t('docs.events.example')}</summary>
                      <Example value={recordedValue(body)} />
                    </details>
                  )}
                </article>
              );
            })}
          </section>
        )}
        {errorCodes && (
          <section id="error-codes">
            <h2>{t('docs.errors')}</h2>
            <Markdown text={errorCodes.description} />
            <ul class="codes">
              {(errorCodes.enum ?? []).map((code) => (
                <li>
                  <code>{String(code)}</code>
                </li>
              ))}
            </ul>
          </section>
        )}
        <section id="schemas">
          <h2>{t('docs.schemas')}</h2>
          {schemas.map(([name, schema]) => (
            <article class="operation" id={`schema-${name}`}>
              <h3>{name}</h3>
              <Markdown text={schema.description} />
              <Properties schema={schema} t={t} />
            </article>
          ))}
        </section>
      </section>
    ),
  };
}
