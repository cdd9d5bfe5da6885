/**
 * Links without an account (docs/reference.md#tracking the driver's tracking page, §19 the consignee's
 * signing page): a secret address that opens one page of one freight for one purpose, ends when
 * its purpose does (delivery) or when the winner revokes it, and never opens anything else. The
 * pages themselves belong to the modules that own their purpose (tracking, e-CMR); this module
 * owns only the links. The module's public surface.
 */
export type { LinkPurpose, LinkTables } from './tables.ts';
export {
  ENDED_LINKS_KEPT_DAYS,
  LINK_LIFETIME_DAYS,
  deleteEndedLinks,
  issueLink,
  liveLinks,
  openLink,
  revokeLinks,
  type IssuedLink,
  type OpenedLink,
} from './store.ts';
