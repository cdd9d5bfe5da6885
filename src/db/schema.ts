import type { Kysely, Transaction } from 'kysely';
import type { AccountTables } from '../accounts/tables.ts';
import type { FlightTables } from '../flights/tables.ts';
import type { FreightTables } from '../freights/tables.ts';
import type { PricingTables } from '../pricing/tables.ts';
import type { CaseTables } from '../cases/tables.ts';
import type { FileTables } from '../files/tables.ts';
import type { MilkrunTables } from '../milkrun/tables.ts';
import type { TmsTables } from '../tms/tables.ts';
import type { WebhookTables } from '../webhooks/tables.ts';
import type { SearchTables } from '../searches/tables.ts';
import type { TemplateTables } from '../templates/tables.ts';
import type { VehicleTables } from '../vehicles/tables.ts';
import type { TrustTables } from '../trust/tables.ts';
import type { DealTables } from '../deals/tables.ts';
import type { LaneTables } from '../lanes/tables.ts';
import type { MarketTables } from '../market/tables.ts';
import type { DbTables } from './tables.ts';
import type { AlertTables } from '../alerts/tables.ts';
import type { MailTables } from '../mail/tables.ts';
import type { CmrTables } from '../cmr/tables.ts';
import type { LinkTables } from '../links/tables.ts';
import type { PositionTables } from '../positions/tables.ts';
import type { TenderTables } from '../tenders/tables.ts';

/**
 * The whole database as Kysely sees it: each module declares its own tables next to its code
 * and this interface joins them (one line per module).
 */
export interface DB
  extends AccountTables,
    FreightTables,
    FlightTables,
    PricingTables,
    FileTables,
    MilkrunTables,
    TmsTables,
    CaseTables,
    WebhookTables,
    SearchTables,
    TemplateTables,
    VehicleTables,
    TrustTables,
    DealTables,
    LaneTables,
    MarketTables,
    AlertTables,
    MailTables,
    CmrTables,
    LinkTables,
    PositionTables,
    TenderTables,
    DbTables {}

/**
 * Where a statement runs: the database, or a transaction of it. Every function that only reads or
 * writes, and may run inside a caller's transaction, takes this one type.
 */
export type Db = Kysely<DB> | Transaction<DB>;
