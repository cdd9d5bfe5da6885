import { ok, rejected } from '../kernel/outcome.ts';
import { userEndpoint, type Endpoint } from '../kernel/route.tsx';
import { FileTooLarge, MAX_FILE_BYTES, PUSH_BODY_LIMIT } from './content.ts';
import { FileRefused } from '../kernel/refused.ts';
import { presentFile, pushFile } from './push.ts';
import { PUSH_DOC } from './schema.ts';

export function fileEndpoints(): Endpoint[] {
  return [
    userEndpoint({
      method: 'POST',
      path: '/files/push',
      doc: PUSH_DOC,
      // Larger than the default 1 MiB: a body over it is a 413 from the kernel, in the envelope.
      bodyLimit: PUSH_BODY_LIMIT,
      async handle(ctx) {
        try {
          const row = await pushFile(ctx.db, ctx.clock, ctx.caller, ctx.params, ctx.services.dbKind);
          return ok({ file: presentFile(row, ctx.clock) });
        } catch (err) {
          if (err instanceof FileRefused) return rejected(406, 'files.refused', ctx.t('files.refused', { problems: err.message }));
          if (err instanceof FileTooLarge)
            return rejected(413, 'files.too_large', ctx.t('files.too_large', { max: MAX_FILE_BYTES / 1024 / 1024 }));
          throw err;
        }
      },
    }),
  ];
}
