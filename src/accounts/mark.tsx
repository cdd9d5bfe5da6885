import { sql, type RawBuilder } from 'kysely';
import type { Translate } from '../kernel/i18n.ts';
import { ConfirmAction, PostButton } from '../kernel/ui.tsx';

/**
 * The verified mark (docs/reference.md#trust), once for every place a company is shown: the SQL piece a
 * statement reads it with (beside the company's name, one primary-key lookup per row), its
 * JSON shape (`{id, name, verified}`) and its HTML (the name linking to the profile, with the
 * mark). Freight lists, the freight page and its bids use it; the vehicle offers will too.
 */

/** SQL: whether the company whose id is `id` (an SQL expression of the outer statement) is verified by the operator. */
export function companyVerifiedSql(id: RawBuilder<unknown>) {
  return sql<boolean>`coalesce((select companies.verified_at is not null from companies where companies.id = ${id}), false)`;
}

/**
 * SQL: the company whose id is `id` as its reference's JSON text (`{"id":…,"name":…,"verified":…}`,
 * read with companyRefFromJson), in one primary-key lookup for both the name and the mark.
 */
export function companyRefJsonSql(id: RawBuilder<unknown>) {
  return sql<
    string | null
  >`(select json_build_array(companies.id, companies.name, companies.verified_at is not null)::text from companies where companies.id = ${id})`;
}

/** A company's reference from companyRefJsonSql's text. */
export function companyRefFromJson(text: string): CompanyRef {
  const [id, name, verified] = JSON.parse(text) as [number, string, boolean];
  return companyRef(id, name, verified);
}

/** A company as answers show it beside a resource. */
export interface CompanyRef {
  id: number;
  name: string;
  verified: boolean;
}

export const companyRef = (id: number, name: string, verified: boolean | null | undefined): CompanyRef => ({
  id,
  name,
  verified: verified === true,
});

/** The profile page of a company. */
export const profilePath = (id: number) => `/companies/view/${id}`;

/** The verified mark alone (a check mark with its words for screen readers and on hover). */
export function VerifiedMark({ t }: { t: Translate }) {
  const words = t('company.verified');
  return (
    <span class="verified" title={words} data-testid="verified-mark">
      <span aria-hidden="true">✓</span>
      <span class="visually-hidden">{words}</span>
    </span>
  );
}

/** A company's name linking to its profile, with the verified mark when the operator verified it. */
export function CompanyName({ company, t }: { company: CompanyRef; t: Translate }) {
  return (
    <span class="company-name">
      <a href={profilePath(company.id)}>{company.name}</a>
      {company.verified && (
        <>
          {' '}
          <VerifiedMark t={t} />
        </>
      )}
    </span>
  );
}

/**
 * Block or unblock `company` for the caller's company (docs/reference.md#trust), coming back to `back`
 * (the profile, a freight page, the blocked list); blocking asks again first.
 */
export function BlockAction({
  t,
  csrf,
  company,
  blocked,
  back,
}: {
  t: Translate;
  csrf: string;
  company: { id: number; name: string };
  blocked: boolean;
  back: string;
}) {
  return blocked ? (
    <PostButton
      action={`/companies/unblock/${company.id}`}
      label={t('company.unblock')}
      csrf={csrf}
      fields={{ back }}
      variant="secondary"
    />
  ) : (
    <ConfirmAction
      action={`/companies/block/${company.id}`}
      label={t('company.block')}
      question={t('company.block.question', { company: company.name })}
      confirmLabel={t('company.block.confirm')}
      csrf={csrf}
      fields={{ back }}
      variant="danger"
      testId="block-company"
    />
  );
}
