import assert from 'node:assert/strict';
import type { Actor, TestApp } from '../support/harness.ts';

/** The smallest PDF, JPEG and PNG the exchange recognises by their first bytes. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

export const say = (app: TestApp, who: Actor, freight: number, json: Record<string, unknown>) =>
  app.post(`/freights/messages/${freight}.json`, { token: who.token, json });

export const conversations = (app: TestApp, who: Actor, freight: number) =>
  app.get(`/freights/messages/${freight}.json`, { token: who.token });

export const attach = (app: TestApp, who: Actor, freight: number, kind: string, name: string, bytes: Buffer) =>
  app.post(`/freights/documents/${freight}.json`, { token: who.token, json: { kind, name, content: bytes.toString('base64') } });

export const documents = (app: TestApp, who: Actor, freight: number) =>
  app.get(`/freights/documents/${freight}.json`, { token: who.token });

export const unread = async (app: TestApp, who: Actor) => {
  const res = await app.get('/messages/unread.json', { token: who.token });
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data.unread as { count: number; freights: Array<{ freight: number; count: number }> };
};

/** A download's exact bytes and headers (inject keeps the raw payload). */
export async function download(app: TestApp, who: Actor, id: number) {
  const res = await app.http.inject({
    method: 'GET',
    url: `/freights/document/${id}`,
    headers: { authorization: `TokenPass ${who.token}` },
  });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

export function success(res: { status: number; body: any; text: string }) {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'success', res.text);
  return res.body.data;
}

/** A functional failure with its code and the field it names. */
export function fieldError(res: { status: number; body: any; text: string }, code: string, field: string) {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.status, 'error', res.text);
  assert.equal(res.body.code, code, res.text);
  assert.deepEqual(
    res.body.data.errors.map((e: { field: string }) => e.field),
    [field],
  );
}

/** The message a redirect carries to the next page (the flash cookie), or undefined. */
export function flashOf(res: { headers: Record<string, unknown> }): { ok: boolean; message: string } | undefined {
  const set = res.headers['set-cookie'];
  const list = Array.isArray(set) ? set : set ? [String(set)] : [];
  const raw = list.map(String).find((c) => c.startsWith('fx_flash='));
  return raw ? JSON.parse(decodeURIComponent(raw.slice('fx_flash='.length).split(';')[0]!)) : undefined;
}

/** A file of exactly `size` bytes that starts as a PDF. */
export const pdfOf = (size: number) => Buffer.concat([PDF, Buffer.alloc(size - PDF.length, 0x20)]);

/** A Windows executable's first bytes (MZ), as a renamed file would bring them. */
export const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200, 0)]);
