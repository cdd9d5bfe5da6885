import type { Caller, Ctx } from '../kernel/context.ts';
import type { Page } from '../kernel/html.tsx';
import { CsrfField } from '../kernel/html.tsx';
import type { Answer } from '../kernel/outcome.ts';
import { readInt } from '../kernel/params.ts';
import type { PageResult } from '../kernel/route.tsx';
import { Badge, DataTable, Pager, PostButton, Tabs, text, type Column, type Tab } from '../kernel/ui.tsx';
import type { MilkrunView } from './present.ts';
import { decideMove, isMilkrunList, LISTS, MOVES, type Move } from './states.ts';
import type { State } from './tables.ts';
import { formatNumber, formatStamp } from '../kernel/locale.ts';
import { companiesByName, namesOfCompanies } from '../accounts/index.ts';
import { partnerCompanies } from '../freights/index.ts';

/**
 * HTML pages of the milk-run (routes.ts): the filter lists as tabs, the shipments of one list
 * with the moves the list's party may make from each shipment's state (states.ts decides), and
 * the moves' form posts, which land back on the list they came from with a flash message.
 */

type Shipment = MilkrunView;

const GROUPS = [
  ['mv.group.handling', [70, 71, 78, 72]],
  ['mv.group.forwarding', [80, 81, 82, 83, 84]],
  ['mv.group.trucking', [73, 74, 75]],
] as const;

const listPath = (id: number) => `/milkrun/import/short/${id}`;

/** The milk-run's place in the menu: it opens on the shipments waiting for selection. */
export const MILKRUN_SECTION = { prefix: '/milkrun', href: listPath(70), label: 'nav.milkrun' } as const;

/** The moves the list's party may make on a shipment in its state (the state machine's answer). */
function movesFor(listId: number, state: State): Move[] {
  const list = LISTS[listId];
  return list ? MOVES.filter((m) => decideMove(m, [list.party], state) !== null) : [];
}

function MoveForm({
  move,
  shipment,
  listId,
  csrf,
  label,
  carrierLabel,
}: {
  move: Move;
  shipment: Shipment;
  listId: number;
  csrf: string;
  label: string;
  carrierLabel: string;
}) {
  // The owner's dispatch hands the shipment to a trucker: that form asks for the company, by name.
  if (move === 'dispatch' && LISTS[listId]?.party === 'owner') {
    return (
      <form class="inline" method="post" action={`/milkrun/dispatch/${shipment.id}`}>
        <CsrfField token={csrf} />
        <input type="hidden" name="back" value={String(listId)} />
        <input name="carrier" list="truckers" size={14} required aria-label={carrierLabel} placeholder={carrierLabel} autocomplete="off" />
        <button type="submit">{label}</button>
      </form>
    );
  }
  return (
    <PostButton
      action={`/milkrun/${move}/${shipment.id}`}
      label={label}
      csrf={csrf}
      fields={{ back: String(listId) }}
      variant={move === 'deselect' ? 'secondary' : undefined}
    />
  );
}

/** GET /milkrun/import/short/{id}: one list of the milk-run. */
export function milkrunPage(
  ctx: Ctx<Caller>,
  listId: number,
  shipments: Shipment[],
  paging: { page: number; limit: number },
  names: Map<number, string> = new Map(),
  truckers: Array<{ id: number; name: string }> = [],
): Page {
  const t = ctx.t;
  const csrf = ctx.reply.generateCsrf();
  const tabs: Tab[] = GROUPS.flatMap(([group, ids]) =>
    ids.map((id, i) => ({ href: listPath(id), label: t(`mv.l${id}`), active: id === listId, group: i === 0 ? t(group) : undefined })),
  );
  const group = GROUPS.find(([, ids]) => (ids as readonly number[]).includes(listId));
  const list = group?.[1].find((id) => id === listId);
  const title = `${t('mv.title')}: ${group ? `${t(group[0])} · ` : ''}${list === undefined ? listId : t(`mv.l${list}`)}`;
  const lang = ctx.language;
  const time = (v: unknown) => formatStamp(v, lang) || '–';
  // The trucker matters once the shipment is dispatched; before, the column would be empty.
  const handedOver = (LISTS[listId]?.states ?? []).some((st) => st === 'dispatched' || st === 'running' || st === 'delivered');
  const columns: Column<Shipment>[] = [
    { label: t('mv.col.awb'), cell: (s) => text(s.awb) },
    { label: t('mv.col.weight'), cell: (s) => formatNumber(s.weight, lang) || '–', numeric: true },
    { label: t('mv.col.pieces'), cell: (s) => formatNumber(s.pieces, lang) || '–', numeric: true },
    { label: t('mv.col.flight'), cell: (s) => `${text(s.flight_number)}${s.location ? ` · ${s.location}` : ''}` },
    { label: t('mv.col.ata'), cell: (s) => time(s.ata) },
    {
      label: `${t('mv.col.nfd')} / ${t('mv.col.awd')}`,
      cell: (s) => <span class="wrap-text">{`${time(s.nfd_received)} / ${time(s.awd_received)}`}</span>,
    },
    { label: t('mv.col.shc'), cell: (s) => text(s.special_handling_codes) },
    { label: t('mv.col.warehouse'), cell: (s) => text(s.warehouse_location) },
    { label: t('mv.col.state'), cell: (s) => <Badge value={s.state} t={t} /> },
    ...(handedOver ? [{ label: t('mv.col.carrier'), cell: (s: Shipment) => (s.carrier ? (names.get(s.carrier) ?? '–') : '–') }] : []),
    {
      label: '',
      // The moves wrap inside their cell, so every one stays visible beside a wide row.
      cell: (s) => (
        <div class="actions">
          {movesFor(listId, s.state).map((m) => (
            <MoveForm move={m} shipment={s} listId={listId} csrf={csrf} label={t(`mv.move.${m}`)} carrierLabel={t('mv.carrier')} />
          ))}
        </div>
      ),
    },
  ];
  const href = (page: number, limit = paging.limit) =>
    `${listPath(listId)}?${new URLSearchParams({ page: String(page), limit: String(limit) })}`;
  return {
    title,
    body: (
      <section>
        <h1>{title}</h1>
        <Tabs tabs={tabs} label={t('mv.title')} />
        <DataTable columns={columns} rows={shipments} empty={t('mv.empty')} testId="milkrun" />
        <datalist id="truckers">
          {truckers.map((c) => (
            <option value={c.name} />
          ))}
        </datalist>
        <Pager
          page={paging.page}
          limit={paging.limit}
          count={shipments.length}
          href={(page) => href(page)}
          sizeHref={(limit, page) => href(page, limit)}
          t={t}
        />
        <p class="hint">{t('mv.hint')}</p>
      </section>
    ),
  };
}

/** An unknown list id: to the first list, with the reason. */
export async function milkrunListPage(
  outcome: Answer<{ shipments: Shipment[] }>,
  ctx: Ctx<Caller>,
  listId: number | undefined,
  paging: { page: number; limit: number },
): Promise<PageResult> {
  if (outcome.kind === 'error' || listId === undefined)
    return { redirect: listPath(70), ok: false, message: outcome.kind === 'error' ? outcome.message : undefined };
  const shipments = outcome.data.shipments;
  // Truckers by name: those shown, and those to pick from where the owner dispatches.
  const dispatching = LISTS[listId]?.party === 'owner' && shipments.some((s) => movesFor(listId, s.state).includes('dispatch'));
  const [names, truckers] = await Promise.all([
    namesOfCompanies(
      ctx.db,
      shipments.map((s) => s.carrier),
    ),
    dispatching ? partnerCompanies(ctx.db, ctx.caller.companyId) : Promise.resolve([]),
  ]);
  return milkrunPage(ctx, listId, shipments, paging, names, truckers);
}

/** The dispatch form's trucker as a company name (or id): the id the API takes; an unknown name stays for the API to refuse. */
export async function carrierByName(ctx: Ctx<Caller>): Promise<void> {
  const raw = ctx.params.carrier;
  if (typeof raw !== 'string' || /^\s*\d+\s*$/.test(raw) || !raw.trim()) return;
  const { ids } = await companiesByName(ctx.db, raw);
  if (ids.length === 1) ctx.params.carrier = String(ids[0]);
}

/**
 * After a move: back to the list the form came from (`back`, a list id); without one, to the
 * list the shipment is in now for the caller (the trucker's lists when it is the trucker).
 */
export function afterMove(move: Move) {
  return (outcome: Answer<{ shipment: Shipment }>, ctx: Ctx<Caller>): PageResult => {
    const back = readInt(ctx.params.back);
    const shipment = outcome.kind === 'ok' ? outcome.data.shipment : undefined;
    let target = back !== undefined && isMilkrunList(back) ? back : undefined;
    if (target === undefined && shipment) {
      const party = shipment.carrier === ctx.caller.companyId ? 'carrier' : 'owner';
      target = GROUPS.flatMap(([, ids]) => ids).find((id) => LISTS[id]!.party === party && LISTS[id]!.states.includes(shipment.state));
    }
    const to = listPath(target ?? 70);
    if (outcome.kind === 'error') return { redirect: to, ok: false, message: outcome.message };
    return { redirect: to, message: ctx.t(`mv.done.${move}`, { awb: String(shipment?.awb ?? '') }) };
  };
}
