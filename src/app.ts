import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import {
  accountEndpoints,
  passwordEndpoints,
  attachTokenRefresh,
  createAuthenticator,
  resolveTokenSecret,
  TokenIssuer,
  ACCOUNT_ERRORS,
  ACCOUNT_MESSAGES,
} from './accounts/index.ts';
import { ReadReplicas } from './db/replicas.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/connection.ts';
import type { Services } from './kernel/context.ts';
import { createHttpServer } from './kernel/http.tsx';
import { registerEndpoints, type Endpoint } from './kernel/route.tsx';
import { Clock } from './kernel/time.ts';
import type { Transaction } from 'kysely';
import type { DB } from './db/schema.ts';
import { AlertWorker, alertQueueStats, attachAlertWorker, enqueueAlert, enqueueAlerts, type AlertSubject } from './alerts/index.ts';
import { installCatalogues, KERNEL_MESSAGES } from './kernel/i18n.ts';
import { KERNEL_ERRORS, type ErrorCode } from './kernel/errors.ts';
import { CASE_ERRORS, CASE_MESSAGES, CASES_SECTION, caseEndpoints } from './cases/index.ts';
import { DESK_MESSAGES, deskEndpoints } from './desk/index.ts';
import { FILE_ERRORS, FILE_MESSAGES, fileEndpoints } from './files/index.ts';
import { MILKRUN_ERRORS, MILKRUN_MESSAGES, milkrunEndpoints, milkrunShipmentList, MILKRUN_SECTION } from './milkrun/index.ts';
import { OPENAPI_MESSAGES, openApiRoutes } from './openapi/index.ts';
import { PLACE_ERRORS, PLACE_MESSAGES, placeEndpoints } from './places/index.ts';
import { PRICING_ERRORS, PRICING_MESSAGES, PRICING_SECTION, pricingEndpoints } from './pricing/index.ts';
import { ONE_STEP_ERRORS, ONE_STEP_MESSAGES, oneStepEndpoints, QUOTE_ERRORS, QUOTE_MESSAGES, quoteEndpoints } from './quotes/index.ts';
import { SEARCH_ERRORS, SEARCH_MESSAGES, countLists, alertSavedSearches, searchEndpoints, SEARCH_EVENT_DOCS } from './searches/index.ts';
import { SHIPMENT_ERRORS, SHIPMENT_MESSAGES, shipmentEndpoints } from './shipments/index.ts';
import { TMS_ERRORS, TMS_MESSAGES, tmsEndpoints, tmsFreightLists, tmsShipmentList, tourColumns } from './tms/index.ts';
import {
  WEBHOOK_ERRORS,
  WEBHOOK_MESSAGES,
  outboxStats,
  SETTINGS_SECTION,
  webhookEndpoints,
  attachWebhookDispatcher,
  WEBHOOK_EVENT_DOCS,
} from './webhooks/index.ts';
import {
  bidderFigures,
  TRUST_ERRORS,
  TRUST_MESSAGES,
  TRUST_SECTION,
  trustEndpoints,
  TRUST_EVENT_DOCS,
  ratingSummaries,
} from './trust/index.ts';
import {
  attachTrackingSweeper,
  POSITION_ERRORS,
  POSITION_EVENT_DOCS,
  POSITION_MESSAGES,
  positionEndpoints,
  trackingSection,
  trackingMarks,
} from './positions/index.ts';
import {
  enterLaneCell,
  ensureLaneCells,
  LANE_ERRORS,
  LANE_MESSAGES,
  laneEndpoints,
  marketPriceHint,
  PRICES_SECTION,
} from './lanes/index.ts';
import { startRoadRouter, stopRoadRouter } from './market/index.ts';
import {
  DEAL_ERRORS,
  DEAL_EVENT_DOCS,
  DEAL_MESSAGES,
  dealEndpoints,
  dealRoom,
  issueTransportOrder,
  registerDealRoutes,
  attachUploadSweeper,
  DOCUMENT_DOWNLOAD,
} from './deals/index.ts';
import { registerOpsRoutes, attachMetrics, type Metrics, attachBackupSocket } from './ops/index.ts';
import {
  attachTenderSweeper,
  evaluationExport,
  guideSection,
  registerTenderExport,
  TENDER_EXPORT,
  routingGuide,
  TENDER_ERRORS,
  TENDER_EVENT_DOCS,
  TENDER_MESSAGES,
  tenderEndpoints,
  TENDERS_SECTION,
  tenderNotices,
} from './tenders/index.ts';
import {
  CMR_ERRORS,
  CMR_EVENT_DOCS,
  CMR_MESSAGES,
  cmrEndpoints,
  cmrSection,
  consigneeEndpoints,
  followOrder,
  issueCmr,
} from './cmr/index.ts';
import {
  attachMail,
  MAIL_ERRORS,
  MAIL_MESSAGES,
  MAIL_SECTION,
  mailEndpoints,
  mailKeepsEvent,
  mailQueueStats,
  type MailWorker,
} from './mail/index.ts';
import { ONE_RECORD_PREFIX, registerOneRecordRoutes, sendFailure as oneRecordRefusal } from './onerecord/index.ts';
import {
  attachExpirySweeper,
  attachWaterfallSweeper,
  waterfallQueueStats,
  AwardPath,
  type AwardStep,
  FREIGHT_ERRORS,
  FREIGHT_MESSAGES,
  FreightPresentations,
  HOME_LIST,
  LIST,
  listPath,
} from './freights/index.ts';
import {
  FREIGHT_EVENT_DOCS,
  FREIGHT_PAGE_MESSAGES,
  FREIGHTS_SECTION,
  freightEndpoints,
  LIST_NAME_MESSAGES,
  LOAD_PAGE_MESSAGES,
  ONE_STEP_PAGE_MESSAGES,
} from './freights-http/index.ts';
import { FLIGHT_ERRORS, FLIGHT_MESSAGES, FLIGHTS_SECTION, flightEndpoints } from './flights/index.ts';
import { TEMPLATE_ERRORS, TEMPLATE_MESSAGES, TEMPLATES_SECTION, templateEndpoints } from './templates/index.ts';
import { trackingEndpoints } from './tracking/index.ts';
import { LiveHub, LIVE_ERRORS, LIVE_MESSAGES, attachLiveHub, LIVE_PATH, registerLiveRoutes } from './live/index.ts';
import type { DeliveredEventType, EventDoc } from './events/index.ts';
import {
  alertFreight,
  alertOffer,
  fittingTrucksSection,
  VEHICLE_ERRORS,
  VEHICLE_EVENT_DOCS,
  VEHICLE_MESSAGES,
  VEHICLES_SECTION,
  vehicleEndpoints,
  vehicleViews,
} from './vehicles/index.ts';

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  clock?: Clock;
  /**
   * Whether an award enters its lane cell in its transaction (docs/reference.md#lane-prices; default true).
   * False only for bench/lanes.ts, which measures awarding with the cell against without it.
   */
  recordLaneAwards?: boolean;
  /**
   * Whether an award issues its e-CMR in its transaction (docs/reference.md#ecmr; default true). False
   * only for bench/cmr.ts, which measures awarding with the note against without it.
   */
  issueCmrs?: boolean;
}

export interface App {
  http: FastifyInstance;
  services: Services;
  tokens: TokenIssuer;
  /** The route table (paths without `.json`), read-only: tests and tools walk every endpoint from it. */
  endpoints: readonly Endpoint[];
  /** The live board's streams of this process (docs/reference.md#live-board). */
  live: LiveHub;
  /** The worker that computes this process's alerts after their commits (tests wait for it). */
  alerts: AlertWorker;
  /** Writes the freights' stored view presentations a view found stale (tests wait for it). */
  presentations: FreightPresentations;
  /** GET /metrics's registry, when METRICS_TOKEN is set (ops/metrics.ts). */
  metrics?: Metrics;
  /** This process's mail worker (docs/reference.md#mail); null without SMTP_URL (tests drain it). */
  mail: MailWorker | null;
  /** The sweep of what killed uploads left (at start and every 5 minutes; tests call it) and its state for /healthz. */
  uploads: ReturnType<typeof attachUploadSweeper>;
  /** Waterfall turns' sweeper (docs/reference.md#one-step): `sweep()` runs one pass now (tests move the clock). */
  waterfalls: { sweep(): Promise<number> };
  /** Tenders' sweeper (docs/reference.md#tenders): `sweep()` closes tenders past their deadline now (tests move the clock). */
  tenders: { sweep(): Promise<number> };
}

/** Builds the HTTP application: services shared by every module, then each module's endpoints. */
/** Every module's texts in English and German, installed once at start (kernel/i18n.ts). */
export const CATALOGUES = [
  KERNEL_MESSAGES,
  ACCOUNT_MESSAGES,
  CASE_MESSAGES,
  DESK_MESSAGES,
  FILE_MESSAGES,
  FLIGHT_MESSAGES,
  FREIGHT_MESSAGES,
  FREIGHT_PAGE_MESSAGES,
  LIST_NAME_MESSAGES,
  LANE_MESSAGES,
  MILKRUN_MESSAGES,
  OPENAPI_MESSAGES,
  PLACE_MESSAGES,
  PRICING_MESSAGES,
  QUOTE_MESSAGES,
  ONE_STEP_MESSAGES,
  ONE_STEP_PAGE_MESSAGES,
  LOAD_PAGE_MESSAGES,
  SEARCH_MESSAGES,
  SHIPMENT_MESSAGES,
  TEMPLATE_MESSAGES,
  TMS_MESSAGES,
  VEHICLE_MESSAGES,
  TRUST_MESSAGES,
  DEAL_MESSAGES,
  LIVE_MESSAGES,
  WEBHOOK_MESSAGES,
  MAIL_MESSAGES,
  POSITION_MESSAGES,
  CMR_MESSAGES,
  TENDER_MESSAGES,
];

/**
 * What every event a webhook may receive says of itself (GET /openapi.json, `webhooks`), from the
 * module that plans it: a new event type without its doc fails the typecheck here.
 */
export const EVENT_DOCS = {
  ...FREIGHT_EVENT_DOCS,
  ...SEARCH_EVENT_DOCS,
  ...VEHICLE_EVENT_DOCS,
  ...TRUST_EVENT_DOCS,
  ...DEAL_EVENT_DOCS,
  ...CMR_EVENT_DOCS,
  ...WEBHOOK_EVENT_DOCS,
  ...POSITION_EVENT_DOCS,
  ...TENDER_EVENT_DOCS,
} satisfies Record<DeliveredEventType, EventDoc>;

/**
 * Every code an error answer may carry, with its meaning (kernel/errors.ts): the API description
 * lists exactly these. `satisfies` refuses a module's list left out here.
 */
export const ERROR_CODES = {
  ...KERNEL_ERRORS,
  ...ACCOUNT_ERRORS,
  ...CASE_ERRORS,
  ...FILE_ERRORS,
  ...FLIGHT_ERRORS,
  ...FREIGHT_ERRORS,
  ...LANE_ERRORS,
  ...MILKRUN_ERRORS,
  ...PLACE_ERRORS,
  ...PRICING_ERRORS,
  ...QUOTE_ERRORS,
  ...ONE_STEP_ERRORS,
  ...SEARCH_ERRORS,
  ...SHIPMENT_ERRORS,
  ...TEMPLATE_ERRORS,
  ...TMS_ERRORS,
  ...VEHICLE_ERRORS,
  ...TRUST_ERRORS,
  ...DEAL_ERRORS,
  ...LIVE_ERRORS,
  ...WEBHOOK_ERRORS,
  ...MAIL_ERRORS,
  ...POSITION_ERRORS,
  ...CMR_ERRORS,
  ...TENDER_ERRORS,
} as const satisfies Record<ErrorCode, string>;

export async function buildApp(options: AppOptions): Promise<App> {
  installCatalogues(CATALOGUES);
  const { config, database } = options;
  const clock = options.clock ?? new Clock(config.timezone);
  const tokens = new TokenIssuer(await resolveTokenSecret(config, database.db), config.appEnv);
  const auth = createAuthenticator(database.db, tokens, clock);
  const services: Services = { db: database.db, dbKind: database.kind, config, clock, auth };
  // Lane cells for this APP_TIMEZONE and LANE_PRICES_RELEASE: built once from the awards (a new or
  // upgraded database, or the zone or the release rule changed).
  await ensureLaneCells(database.db, clock.zone, config.lanePricesRelease);

  const http = await createHttpServer({
    logger: options.logger ?? false,
    cookieSecret: tokens.cookieSecret(),
    trustProxy: config.trustProxy,
    // ONE Record answers even an unreadable URL under its prefix as JSON-LD.
    refusals: { [ONE_RECORD_PREFIX]: oneRecordRefusal },
    // The document download and the event stream are no pages: every failure is the envelope with its code.
    jsonFailures: [DOCUMENT_DOWNLOAD, LIVE_PATH, TENDER_EXPORT],
    // The pages' menu, a section per module, and where the not-found page leads back to.
    layout: {
      sections: [
        FREIGHTS_SECTION,
        VEHICLES_SECTION,
        PRICING_SECTION,
        PRICES_SECTION,
        TENDERS_SECTION,
        TEMPLATES_SECTION,
        FLIGHTS_SECTION,
        MILKRUN_SECTION,
        CASES_SECTION,
        TRUST_SECTION,
        SETTINGS_SECTION,
        MAIL_SECTION,
      ],
      home: listPath(HOME_LIST),
      live: LIVE_PATH,
    },
  });
  // Road distances from the operator's routing server (ROUTING_URL; market/roads.ts): in the background.
  if (config.routing) {
    const router = await startRoadRouter(database.db, { ...config.routing, warn: (message) => http.log.warn(message) });
    http.addHook('onClose', async () => stopRoadRouter(router));
  }
  // Reads on replicas, when DATABASE_READ_URL names some (db/replicas.ts): sampled from the start.
  if (config.databaseReadUrls.length && database.kind === 'postgres') {
    const replicas = new ReadReplicas(database.db, config.databaseReadUrls, config.databaseReadMaxLagMs, (err, replica) =>
      http.log.warn({ err, replica }, 'replica unavailable'),
    );
    await replicas.start();
    http.addHook('onClose', async () => replicas.stop());
    services.reads = replicas;
  }
  // GET /metrics, and the request hook that counts every route registered below (only with METRICS_TOKEN).
  const metrics = config.metricsToken
    ? attachMetrics(http, config.metricsToken, {
        now: () => clock.now(),
        // Queues in the database, each read by the module that owns it (a new queue adds its line here).
        queues: {
          webhooks: (now) => outboxStats(database.db, now),
          alerts: (now) => alertQueueStats(database.db, now),
          mail: (now) => mailQueueStats(database.db, now),
          waterfalls: (now) => waterfallQueueStats(database.db, now),
        },
        pool:
          database.pool &&
          (() => ({ total: database.pool!.totalCount, idle: database.pool!.idleCount, waiting: database.pool!.waitingCount })),
        liveStreams: () => live.size,
        replicas: services.reads && (() => services.reads!.status()),
      })
    : undefined;
  if (metrics) services.observe = metrics;
  // The embedded database: `freight-exchange backup` asks the listening server for a copy (ops/backup/socket.ts).
  attachBackupSocket(http, database);
  // E-mail (docs/reference.md#mail): which events are mailed (none without SMTP_URL), the unsubscribe
  // links, and the worker that sends while the server listens; its outbox's state in /healthz.
  const mail = await attachMail(http, services, { unsubscribeKey: tokens.derivedKey('mail-unsubscribe') });
  // What killed uploads left is swept at start and every 5 minutes; what is left and under way in /healthz.
  const uploads = attachUploadSweeper(http, services);
  registerOpsRoutes(http, services, { mail: mail.status, uploads: uploads.status });
  registerOneRecordRoutes(http, services); // ONE Record: JSON-LD with its own errors, outside the envelope

  // Alerts run after the commit that publishes (a freight or an offer), never in the request: the
  // publishing transaction queues the job, this worker computes it (saved searches, fitting offers
  // or freights) in a transaction of its own.
  const alerts = new AlertWorker({
    db: database.db,
    clock,
    handlers: { freight: [alertSavedSearches, alertFreight], vehicle: [alertOffer] },
    log: http.log,
  });
  const queueAlert = (subject: AlertSubject) => (trx: Transaction<DB>, at: Clock, id: number) => enqueueAlert(trx, subject, id, at.now());
  const alertsCommitted = () => alerts.poke();
  // A freight's JSON view is sent from its stored presentation; one a view found missing or stale
  // is written again after the answer (src/freights/presented.ts). Closing waits for the batch under way.
  const presentations = new FreightPresentations({ db: database.db, clock, log: http.log });
  http.addHook('onClose', async () => presentations.stop());
  // The one award path (freights/award.ts): what an award does besides taking the freight, in its
  // transaction and in this order. A module whose work belongs to the award adds its step here.
  const awardSteps: AwardStep[] = [
    // The deal room's transport order (docs/reference.md#deal-room), and the e-CMR filled from it (docs/reference.md#ecmr).
    issueTransportOrder(options.issueCmrs !== false ? [issueCmr] : []),
    ...(options.recordLaneAwards !== false ? [enterLaneCell] : []), // the award in its lane cell (docs/reference.md#lane-prices)
  ];
  const award = new AwardPath(awardSteps);
  // Deals in one step (docs/reference.md#one-step) award through the same path, each with its way; a
  // waterfall's last turn may open the freight to the market, which alerts saved searches like a publish.
  // A waterfall with `guide` = 1 takes its carriers from the owner's lane contracts (docs/reference.md#tenders).
  const oneStep = {
    award,
    work: {
      enteredMarket: queueAlert('freight'),
      enteredMarketAll: (trx: Transaction<DB>, at: Clock, ids: readonly number[]) => enqueueAlerts(trx, 'freight', ids, at.now()),
    },
    guide: routingGuide,
  };
  // Each module contributes its endpoints; one line per module. A module's endpoints that use a
  // module above it get its parts here, as parameters (docs/architecture.md): the freight lists
  // serve TMS 51-53 and show counts, a freight entering the market alerts saved searches, and
  // the Shipments lists serve TMS and milk-run lists.
  const endpoints: Endpoint[] = [
    ...accountEndpoints(tokens),
    ...passwordEndpoints(),
    ...pricingEndpoints(),
    ...quoteEndpoints({ award }), // bids; a confirmed pair awards through the award path
    ...oneStepEndpoints(oneStep), // Book Now, counter-offers, waterfalls (docs/reference.md#one-step)
    ...freightEndpoints({
      otherLists: tmsFreightLists(),
      listColumns: new Map([[LIST.tmsTours, tourColumns]]),
      countLists,
      rowMarks: trackingMarks, // late and the last milestone under the route, on the two parties' rows (docs/reference.md#tracking)
      enteredMarket: queueAlert('freight'),
      published: alertsCommitted,
      presentations,
      // Below the freight: the owner's fitting trucks, where the load is (its two parties), the e-CMR, then the deal room (messages, documents).
      sections: async (ctx, route) => [
        await guideSection(ctx, route), // the owner's draft: the routing guide, when its contracts cover the lane (docs/reference.md#tenders)
        await fittingTrucksSection(ctx, route),
        await trackingSection(ctx, route),
        await cmrSection(ctx, route),
        await dealRoom(ctx, route),
      ],
      marketPrice: marketPriceHint,
      partnerRatings: ratingSummaries, // beside the partners' names in the waterfall's picker (docs/reference.md#one-step)
      bidders: bidderFigures,
    }),
    ...templateEndpoints({ award }), // a freight from a template is an own order, awarded by the same path
    ...flightEndpoints(),
    ...trackingEndpoints(),
    ...fileEndpoints(),
    ...shipmentEndpoints([tmsShipmentList, milkrunShipmentList]),
    ...milkrunEndpoints(),
    ...tmsEndpoints(),
    ...caseEndpoints(),
    ...webhookEndpoints(),
    ...searchEndpoints({ readVehicles: vehicleViews, readTenders: tenderNotices }),
    ...vehicleEndpoints({ published: queueAlert('vehicle'), committed: alertsCommitted }),
    ...trustEndpoints(), // company profiles, ratings, blocks (docs/reference.md#trust)
    // conversations and documents beside a freight (docs/reference.md#deal-room); the e-CMR follows the order's new versions
    ...dealEndpoints(options.issueCmrs !== false ? [followOrder] : []),
    ...laneEndpoints(), // lane prices (docs/reference.md#lane-prices)
    ...placeEndpoints(),
    ...deskEndpoints(), // the start page: the dispatcher's work queue
    ...mailEndpoints(), // the user's e-mail settings (docs/reference.md#mail)
    ...positionEndpoints(), // tracking by permission: positions, ETA, milestones, the driver's link (docs/reference.md#tracking)
    ...cmrEndpoints(config.mail.publicUrl), // the electronic consignment note (docs/reference.md#ecmr)
    ...consigneeEndpoints(config.mail.publicUrl), // its consignee's link and page (src/links)
    ...tenderEndpoints(), // lane tenders, sealed bids, the award, contracts (docs/reference.md#tenders)
  ];
  // The API description of every JSON endpoint above (GET /openapi.json) and its reference page.
  endpoints.push(openApiRoutes(http, () => endpoints, { events: EVENT_DOCS, errorCodes: ERROR_CODES }).docs);
  registerEndpoints(http, services, endpoints);
  // The live board (docs/reference.md#live-board): GET /events/stream, its streams ended when the server begins to close.
  const live = new LiveHub({ db: database.db, clock, listen: database.listen, log: http.log });
  registerLiveRoutes(http, services, live);
  attachLiveHub(http, live);
  // The deal room's multipart upload (its own scope: no other route reads multipart) and its download (bytes, not the envelope).
  endpoints.push(...(await registerDealRoutes(http, services)));
  // The owner's tender evaluation as CSV (bytes, not the envelope; docs/reference.md#tenders).
  registerTenderExport(http, services, evaluationExport);
  // Tokens in steady use looked up again in the background while the server listens (no request
  // waits for one); a caller changed anywhere dropped at once (NOTIFY, migration 0409).
  attachTokenRefresh(http, auth, database.listen);
  // Expiry written down in the background while the server listens (reads compute it anyway).
  attachExpirySweeper(http, services);
  // Tracking's lateness, delivery and retention swept in the background on every process (src/positions).
  attachTrackingSweeper(http, services);
  // Waterfall turns end by their deadline without a request: every process sweeps (docs/reference.md#one-step).
  const waterfalls = attachWaterfallSweeper(http, services, oneStep.work);
  // Tenders close at their deadline without a request: every process sweeps (docs/reference.md#tenders).
  const tenders = attachTenderSweeper(http, services);
  // The alerts' worker sweeps while the server listens; closing waits for the alert under way.
  attachAlertWorker(http, alerts);
  // Webhook deliveries: started when the server listens, stopped when it closes.
  // Events with mail still to send are kept however old (src/mail).
  attachWebhookDispatcher(http, services, { keeps: mailKeepsEvent });
  return {
    http,
    services,
    tokens,
    endpoints: Object.freeze([...endpoints]),
    live,
    alerts,
    presentations,
    mail: mail.worker,
    metrics,
    uploads,
    waterfalls,
    tenders,
  };
}
