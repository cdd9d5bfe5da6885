import { Type } from '@sinclair/typebox';
import type { EndpointDoc } from '../kernel/doc.ts';
import { MAX_FILE_BYTES } from './content.ts';

const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** `data.file` of a push (presentFile): docs/reference.md#the-api's id, name, action, records, plus additions. */
export const FILE_SCHEMA = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  action: nullable(Type.String()),
  records: Type.Integer({ description: 'status events or rate lines stored; 0 when not processed' }),
  encoding: Type.String({ enum: ['base64', 'plain'] }),
  size: Type.Integer({ description: 'decoded bytes' }),
  sha256: Type.String(),
  status: Type.String({ enum: ['processed', 'ignored'] }),
  message: nullable(Type.String()),
  sheet_id: Type.Union([Type.Integer(), Type.Null()]),
  created: Type.String({ description: 'YYYY-MM-DD HH:MM:SS in APP_TIMEZONE' }),
});

export const PUSH_DOC: EndpointDoc = {
  summary: 'Push a file: status events (CSV, Cargo-IMP FSU, Cargo-XML XFSU) or a rate sheet',
  description:
    `The decoded file may have at most ${MAX_FILE_BYTES / 1024 / 1024} MiB. A file that cannot be read is refused whole (406, every problem named by line ` +
    'and field or XML path, nothing stored). An unknown or missing action: stored, records 0.',
  input: Type.Object({
    content: Type.String({ description: 'the file, base64 (default) or as it is with encoding plain' }),
    encoding: Type.Optional(Type.String({ default: 'base64', description: 'base64, or plain/text/raw/utf8' })),
    action: Type.Optional(
      Type.String({
        description:
          'status (CSV), fsu (Cargo-IMP FSU), xfsu (Cargo-XML status message), rates (rate sheet CSV); any other: stored, not processed',
      }),
    ),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    sheet_name: Type.Optional(Type.String({ description: 'action rates: the sheet name (default: the file name without extension)' })),
    currency: Type.Optional(Type.String({ description: 'action rates' })),
    visibility: Type.Optional(Type.String({ description: 'action rates: private, exchange or public_search' })),
    valid_from: Type.Optional(Type.String({ description: 'action rates: YYYY-MM-DD' })),
    valid_to: Type.Optional(Type.String({ description: 'action rates: YYYY-MM-DD' })),
  }),
  data: Type.Object({ file: FILE_SCHEMA }),
  answers: {
    406: 'No content, not valid base64 or UTF-8, or a file that cannot be read: nothing stored; the message names each problem.',
    413: 'The decoded file is over the size limit.',
  },
  preview: true,
};
