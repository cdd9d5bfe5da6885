import type { Kysely } from 'kysely';

/**
 * The transport order's content (docs/reference.md#deal-room; docs/choices.md, "The transport order"):
 * one row per awarded freight, written in the award's transaction beside its PDF (a
 * `deal_documents` row of kind `order`). `content` is the JSON text exactly as issued, the PDF
 * is rendered from it, and `GET /freights/order/{freightId}.json` answers it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('deal_orders')
    .addColumn('freight_id', 'integer', (c) => c.primaryKey().references('freights.id').onDelete('cascade'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('deal_documents.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('deal_orders').execute();
}
