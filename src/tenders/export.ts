import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, Services } from '../kernel/context.ts';
import { translator } from '../kernel/i18n.ts';
import { notFound, rejected } from '../kernel/outcome.ts';
import { readId } from '../kernel/params.ts';
import { renderJson } from '../kernel/render.tsx';
import { callerOfRequest } from '../kernel/route.tsx';

/**
 * GET /tenders/export/{id}: the owner's evaluation as CSV (one line per bid), from the deadline on
 * (before it the owner reads no bid, so neither does its export); anyone else, or before: 404. Its
 * failures are the JSON envelope (app.ts jsonFailures), as the documents' download.
 */
export const TENDER_EXPORT = '/tenders/export';

export function registerTenderExport(
  http: FastifyInstance,
  services: Services,
  evaluation: (services: Services, caller: Caller, id: number) => Promise<{ name: string; csv: string } | undefined>,
): void {
  http.get(`${TENDER_EXPORT}/:id`, async (req: FastifyRequest, reply: FastifyReply) => {
    const caller = await callerOfRequest(services, req);
    if (!caller) return renderJson(reply, rejected(401, 'auth.unauthorized', translator('eng')('error.unauthorized')), null);
    const id = readId((req.params as { id?: string }).id);
    const found = id === undefined ? undefined : await evaluation(services, caller, id);
    if (!found) return renderJson(reply, notFound(), caller);
    return reply
      .code(200)
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="tender-${id}-evaluation.csv"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(`\ufeff${found.csv}`);
  });
}
