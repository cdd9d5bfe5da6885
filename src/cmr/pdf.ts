import QRCode from 'qrcode';
import { drawRows, openPdf, type Row } from '../deals/index.ts';
import { translator, type MessageKey } from '../kernel/i18n.ts';
import type { CmrView } from './note.ts';
import type { CmrParty, CmrPlace } from './note.ts';
import type { CmrRole } from './tables.ts';

/**
 * The consignment note as a PDF (A4), rendered by pdfkit in the transport order's fonts
 * (deals/pdf.ts: DejaVu Sans, every label in English and German) after every signature: each box
 * with its CMR number, the signatures with their reservations and links, the chain's head, the
 * verify address and its QR code (npm `qrcode`, a PNG image), and the note's JSON (`data.cmr`)
 * embedded as a file, so the PDF's SHA-256 covers both.
 */

const en = translator('eng');
const de = translator('deu');
const both = (key: MessageKey) => `${en(key)} / ${de(key)}`;
const or = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '–' : String(v));

const MARGIN = 40;
const LABEL_WIDTH = 170;
const GAP = 10;
const QR_SIZE = 110;

function partyLines(p: CmrParty): string[] {
  const a = p.postal_address;
  return [
    or(p.name),
    [[a.postcode, a.city_name].filter(Boolean).join(' '), a.country_code].filter(Boolean).join(', ') || '–',
    ...(p.tax_registration ? [`${both('cmr.vat_id')}: ${p.tax_registration.id}`] : []),
  ];
}

const placeLines = (p: CmrPlace) => [[p.name, p.id].filter(Boolean).join(' · ') || '–', or(p.country_code)];

export function cmrRows(c: CmrView): Row[] {
  const rows: Row[] = [
    { label: `1 ${both('cmr.sender')}`, lines: partyLines(c.sender) },
    { label: `2 ${both('cmr.consignee')}`, lines: c.consignee.name ? partyLines(c.consignee) : [both('cmr.consignee_at_delivery')] },
    { label: `3 ${both('cmr.delivery_place')}`, lines: placeLines(c.delivery_place) },
    { label: `4 ${both('cmr.taking_over')}`, lines: [...placeLines(c.taking_over), or(c.taking_over.date)] },
    { label: `16 ${both('cmr.carrier')}`, lines: partyLines(c.carrier) },
    ...(c.vehicle_registration ? [{ label: both('cmr.vehicle'), lines: [c.vehicle_registration] }] : []),
    { heading: both('cmr.goods') },
    ...c.goods.map((g, i) => ({
      label: `6-11 ${both('cmr.line')} ${i + 1}`,
      lines: [
        `${both('cmr.marks')}: ${or(g.marks)}`,
        `${both('cmr.packages')}: ${or(g.packages)}`,
        `${both('cmr.nature')}: ${or(g.nature)}`,
        `${both('cmr.gross_weight')}: ${g.gross_weight === null ? '–' : `${g.gross_weight} kg`}`,
      ],
    })),
    { label: `11 ${both('cmr.gross_weight_total')}`, lines: [c.gross_weight === null ? '–' : `${c.gross_weight} kg`] },
    { label: both('cmr.dangerous'), lines: [or(c.dangerous_goods)] },
    { heading: both('cmr.signatures') },
  ];
  for (const s of c.signatures)
    rows.push({
      label: `${s.role === 'sender' ? '22' : s.role === 'carrier' ? '23' : '24'} ${both(`cmr.role.${s.role as CmrRole}`)}`,
      lines: [`${s.name}, ${s.at} (${c.timezone})`, `${both('cmr.reservations')}: ${or(s.reservations)}`, `SHA-256: ${s.hash}`],
    });
  if (!c.signatures.length) rows.push({ label: '–', lines: [both('cmr.unsigned')] });
  return rows;
}

/** The PDF's bytes; `created` (the signature's time) is its creation date. */
export async function cmrPdf(c: CmrView, verifyAddress: string, created: Date): Promise<Buffer> {
  const title = `${both('cmr.title')} ${c.number}`;
  const { doc, finish } = openPdf(title, created, MARGIN);
  const width = doc.page.width - 2 * MARGIN;
  const qr = await QRCode.toBuffer(verifyAddress, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 4 });
  doc.image(qr, MARGIN + width - QR_SIZE, MARGIN, { width: QR_SIZE, height: QR_SIZE });
  const headWidth = width - QR_SIZE - GAP;
  doc.font('bold').fontSize(15).text(title, MARGIN, MARGIN, { width: headWidth });
  doc.moveDown(0.3);
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor('#333')
    .text(
      [
        `${both('cmr.status')}: ${both(`cmr.status.${c.status}`)}`,
        `${both('cmr.issued')}: ${c.issued} (${c.timezone}) · ${en('cmr.freight')} ${c.freight}`,
        `${both('cmr.head')}: ${c.hash}`,
        `${both('cmr.verify_at')}: ${verifyAddress}`,
      ].join('\n'),
      { width: headWidth },
    );
  doc.fillColor('black');
  let y = Math.max(doc.y, MARGIN + QR_SIZE) + 8;
  y = drawRows(doc, cmrRows(c), y, {
    margin: MARGIN,
    width,
    labelWidth: LABEL_WIDTH,
    gap: GAP,
    heading: { size: 10.5, before: 4, after: 4 },
    row: { size: 8.5, after: 5 },
  });
  const note = [en('cmr.pdf_note'), de('cmr.pdf_note'), c.format].join('\n');
  return finish(y, { note, size: 7.5, gap: 8, file: { name: `${c.number}.json`, json: JSON.stringify(c) } });
}
