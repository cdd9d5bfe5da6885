// The quotes module's view of freights: visibility (decisions.md §4) and due expiry are the
// freights module's rules, used here unchanged.
export { loadVisibleFreight } from '../freights/policy.ts';
export { expireDueFreights } from '../freights/lifecycle.ts';
