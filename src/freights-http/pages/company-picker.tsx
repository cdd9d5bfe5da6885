import { companiesByName } from '../../accounts/index.ts';
import type { Caller, Ctx } from '../../kernel/context.ts';

/**
 * Companies picked by name, with suggestions (the partners the caller's company has dealt with
 * first, then others; freights/page-data.ts partnerCompanies): the one picker of every form that names
 * companies (the publish form's audience, the vehicle offer's whitelist, issue 47 item 9; the
 * tender's invited companies, issue 43). The field (`whitelist_names` unless named) is a
 * comma-separated list of names; `readPickedCompanies` turns it into the ids the API takes
 * (`whitelist`, or the target named). Without JavaScript the same: the browser's own suggestions.
 */
export function CompanyPicker(props: {
  /** the field's id (its datalist is `{id}-companies`) */
  id: string;
  /** the field's name; `whitelist_names` unless given */
  name?: string;
  partners: ReadonlyArray<{ id: number; name: string }>;
  /** the names shown (the companies chosen so far, or what was typed) */
  value: string;
}) {
  const list = `${props.id}-companies`;
  return (
    <>
      <input id={props.id} name={props.name ?? 'whitelist_names'} list={list} value={props.value} autocomplete="off" />
      <datalist id={list}>
        {props.partners.map((c) => (
          <option value={c.name} />
        ))}
      </datalist>
    </>
  );
}

/**
 * The picker's names as ids in `ctx.params[target]` (`whitelist` unless named; a form's post,
 * the picker's field `field`, `whitelist_names` unless named; nothing when the field was not
 * sent). Answers the names no company has (the form says which), or null.
 */
export async function readPickedCompanies(
  ctx: Ctx<Caller>,
  { field = 'whitelist_names', target = 'whitelist' }: { field?: string; target?: string } = {},
): Promise<string[] | null> {
  const raw = ctx.params[field];
  if (typeof raw !== 'string') return null;
  const { ids, unknown } = await companiesByName(ctx.db, raw);
  ctx.params[target] = ids;
  return unknown.length ? unknown : null;
}
