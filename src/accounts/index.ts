/**
 * The accounts module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { attachTokenRefresh, createAuthenticator } from './authenticator.ts';
export {
  block,
  blockedCompanies,
  blockedIds,
  blockersAmong,
  blockedSql,
  blocksEither,
  isBlocked,
  MAX_BLOCKS,
  mayReach,
  notBlockedBySql,
  pushRule,
  unblock,
} from './blocks.ts';
export { accountCommands, withDatabase } from './cli.ts';
export { AccountInputError } from './commands.ts';
export {
  allCompanyIds,
  companiesByName,
  companiesToPick,
  companyName,
  companyNameSql,
  companyRefs,
  type Contact,
  contactOf,
  contactsOf,
  droppedIdsWarning,
  existingCompanies,
  isCompany,
  namesOfCompanies,
} from './companies.ts';
export {
  BlockAction,
  CompanyName,
  companyRef,
  type CompanyRef,
  companyRefFromJson,
  companyRefJsonSql,
  companyVerifiedSql,
  profilePath,
  VerifiedMark,
} from './mark.tsx';
export { ACCOUNT_ERRORS, ACCOUNT_MESSAGES } from './messages.ts';
export { passwordEndpoints } from './password.tsx';
export {
  companyProfile,
  companyProfiles,
  companyProfileJsonSql,
  type CompanyProfileRow,
  PROFILE_FIELDS,
  PROFILE_LIMITS,
  profileRowFromJson,
  readProfileInput,
  updateProfile,
} from './profile.ts';
export { accountEndpoints } from './routes.tsx';
export { resolveTokenSecret } from './secret.ts';
export { type Addressee, addressees, usersOfCompanies } from './store.ts';
export { TokenIssuer } from './tokens.ts';
