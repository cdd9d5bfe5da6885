import type { Migration } from 'kysely';
import * as accounts from './0001_accounts.ts';
import * as freights from './0002_freights.ts';
import * as loginThrottle from './0003_login_throttle.ts';
import * as freightLists from './0010_freight_lists.ts';
import * as freightHotPaths from './0011_freight_hot_paths.ts';
import * as freightCounts from './0012_freight_counts.ts';
import * as marketSearch from './0013_market_search.ts';
import * as bidConfirmers from './0014_bid_confirmers.ts';
import * as loadSearch from './0020_load_search.ts';
import * as savedSearches from './0021_saved_searches.ts';
import * as pricing from './0030_pricing.ts';
import * as files from './0040_files.ts';
import * as milkrun from './0041_milkrun.ts';
import * as tms from './0042_tms.ts';
import * as cases from './0043_cases.ts';
import * as tracking from './0044_tracking.ts';
import * as fileParts from './0045_file_parts.ts';
import * as events from './0050_events.ts';
import * as webhooks from './0051_webhooks.ts';
import * as webhookClaims from './0052_webhook_claims.ts';
import * as wellformedJson from './0053_wellformed_json.ts';
import * as loginAttemptsUser from './0054_login_attempts_user.ts';
import * as vehicles from './0060_vehicles.ts';
import * as trust from './0070_trust.ts';
import * as deals from './0080_deals.ts';
import * as transportOrders from './0081_transport_orders.ts';
import * as lanePrices from './0090_lane_prices.ts';
import * as lanePriceCells from './0100_lane_price_cells.ts';
import * as pointGist from './0110_point_gist.ts';
import * as readFences from './0120_read_fences.ts';
import * as savedSearchKeys from './0130_saved_search_keys.ts';
import * as live from './0100_live.ts';
import * as alertJobs from './0140_alert_jobs.ts';
import * as marketUntil from './0150_market_until.ts';
import * as dealDocumentParts from './0160_deal_document_parts.ts';
import * as offerReach from './0170_offer_reach.ts';
import * as completedIndexes from './0180_completed_indexes.ts';
import * as eventPositions from './0190_event_positions.ts';
import * as lanePriceWinners from './0200_lane_price_winners.ts';
import * as lanePriceRule from './0210_lane_price_rule.ts';
import * as vehicleNotifications from './0220_vehicle_notifications.ts';
import * as freightShare from './0230_freight_share.ts';
import * as laneCellFigures from './0240_lane_cell_figures.ts';
import * as marketCountryOrder from './0250_market_country_order.ts';
import * as documentNames from './0260_document_names.ts';
import * as mail from './0300_mail.ts';
import * as oneStepDeals from './0320_one_step_deals.ts';
import * as tenders from './0330_tenders.ts';
import * as tenderNotifications from './0331_tender_notifications.ts';
import * as positions from './0340_positions.ts';
import * as cmr from './0350_cmr.ts';
import * as freightLinks from './0380_freight_links.ts';
import * as mergedNotifications from './0397_merged_notifications.ts';
import * as roadDistances from './0405_road_distances.ts';
import * as orderVersions from './0406_order_versions.ts';
import * as callerChanges from './0409_caller_changes.ts';
import * as loadFields from './0475_load_fields.ts';
import * as tenderBidsRanked from './0520_tender_bids_ranked.ts';
import * as eventNumbering from './0530_event_numbering.ts';
import * as freightMarks from './0540_freight_marks.ts';
import * as tenderLanesRanked from './0560_tender_lanes_ranked.ts';
import * as notificationsByFreight from './0570_notifications_by_freight.ts';
import * as eventNumberingOwnRows from './0580_event_numbering_own_rows.ts';
import * as freightPresentations from './0590_freight_presentations.ts';
import * as marketNearCovering from './0600_market_near_covering.ts';

/** Every migration, by name; names sort in the order they apply. One line per migration. */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_freights': freights,
  '0003_login_throttle': loginThrottle,
  '0010_freight_lists': freightLists,
  '0011_freight_hot_paths': freightHotPaths,
  '0012_freight_counts': freightCounts,
  '0013_market_search': marketSearch,
  '0014_bid_confirmers': bidConfirmers,
  '0020_load_search': loadSearch,
  '0021_saved_searches': savedSearches,
  '0030_pricing': pricing,
  '0040_files': files,
  '0041_milkrun': milkrun,
  '0042_tms': tms,
  '0043_cases': cases,
  '0044_tracking': tracking,
  '0045_file_parts': fileParts,
  '0050_events': events,
  '0051_webhooks': webhooks,
  '0052_webhook_claims': webhookClaims,
  '0053_wellformed_json': wellformedJson,
  '0054_login_attempts_user': loginAttemptsUser,
  '0060_vehicles': vehicles,
  '0070_trust': trust,
  '0080_deals': deals,
  '0081_transport_orders': transportOrders,
  '0090_lane_prices': lanePrices,
  '0100_lane_price_cells': lanePriceCells,
  '0110_point_gist': pointGist,
  '0120_read_fences': readFences,
  '0130_saved_search_keys': savedSearchKeys,
  '0100_live': live,
  '0140_alert_jobs': alertJobs,
  '0150_market_until': marketUntil,
  '0160_deal_document_parts': dealDocumentParts,
  '0170_offer_reach': offerReach,
  '0180_completed_indexes': completedIndexes,
  '0190_event_positions': eventPositions,
  '0200_lane_price_winners': lanePriceWinners,
  '0210_lane_price_rule': lanePriceRule,
  '0220_vehicle_notifications': vehicleNotifications,
  '0230_freight_share': freightShare,
  '0240_lane_cell_figures': laneCellFigures,
  '0250_market_country_order': marketCountryOrder,
  '0260_document_names': documentNames,
  '0300_mail': mail,
  '0320_one_step_deals': oneStepDeals,
  '0330_tenders': tenders,
  '0331_tender_notifications': tenderNotifications,
  '0340_positions': positions,
  '0350_cmr': cmr,
  '0380_freight_links': freightLinks,
  '0397_merged_notifications': mergedNotifications,
  '0405_road_distances': roadDistances,
  '0406_order_versions': orderVersions,
  '0409_caller_changes': callerChanges,
  '0475_load_fields': loadFields,
  '0520_tender_bids_ranked': tenderBidsRanked,
  '0530_event_numbering': eventNumbering,
  '0540_freight_marks': freightMarks,
  '0560_tender_lanes_ranked': tenderLanesRanked,
  '0570_notifications_by_freight': notificationsByFreight,
  '0580_event_numbering_own_rows': eventNumberingOwnRows,
  '0590_freight_presentations': freightPresentations,
  '0600_market_near_covering': marketNearCovering,
};
