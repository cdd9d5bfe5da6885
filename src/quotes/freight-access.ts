// The quotes module's view of freights: visibility (decisions.md §4) and expiry (computed on
// read, written under the transition's lock) are the freights module's rules, used here unchanged.
export { loadVisibleFreight } from '../freights/policy.ts';
export { isDue, persistExpiry } from '../freights/lifecycle.ts';
