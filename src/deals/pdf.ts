import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { translator, type MessageKey } from '../kernel/i18n.ts';
import { formatKg, formatMoney, formatNumber, formatStamp, formatWindow } from '../kernel/locale.ts';
import { orderDisplayId, type OrderItem, type OrderParty, type OrderPlace, type TransportOrder } from './order.ts';

/**
 * The transport order as a PDF (A4), rendered by pdfkit (docs/choices.md, "The transport
 * order") from the order's content: every value of the JSON is printed, each label in English
 * and German, and the JSON itself is embedded as a file of the PDF (`transport-order-N.json`),
 * so the PDF's SHA-256 covers both. The text is set in DejaVu Sans, embedded as a subset:
 * pdfkit's standard fonts know only WinAnsi, which has € and the German umlauts but not the
 * letters of Polish, Czech or Hungarian company names and addresses (Ł, ő, č…).
 */

const require = createRequire(import.meta.url);
type Font = ReturnType<typeof fontkit.create>;

/** The fonts, parsed once per process (pdfkit takes a parsed fontkit font as it is). */
let fonts: { regular: Font; bold: Font } | undefined;
/** DejaVu Sans, regular and bold, parsed once per process: every PDF the exchange writes (the e-CMR's too) is set in it. */
export function pdfFonts() {
  const read = (file: string) => decodingOnce(fontkit.create(fs.readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))));
  fonts ??= { regular: read('DejaVuSans.ttf'), bold: read('DejaVuSans-Bold.ttf') };
  return fonts;
}

/**
 * The options of every PDF the exchange writes (A4, its title and creation date, English as the
 * document's language). Its default font is DejaVu Sans, parsed once per process: pdfkit's own
 * default, Helvetica, is parsed again for every document (its metrics, ~0.5 ms of a transport
 * order's ~5 ms) and no document uses it. (The regular font is then the document's first, F1,
 * where it was F3 beside an unused Helvetica: the text is the same.)
 */
export function pdfDocumentOptions(title: string, created: Date, margin: number): PDFKit.PDFDocumentOptions {
  return {
    size: 'A4',
    margin,
    info: { Title: title, Producer: 'freight-exchange', Creator: 'freight-exchange', CreationDate: created },
    lang: 'en',
    // pdfkit takes a parsed fontkit font as well as a name (its types name only the name).
    font: pdfFonts().regular as unknown as string,
  };
}

/** How a PDF ends: a note in small grey type under the last row (on a new page when it does not fit), and a JSON text embedded as a file. */
export interface PdfEnding {
  note: string;
  size: number;
  /** space above the note */
  gap: number;
  file: { name: string; json: string };
}

/**
 * A new PDF of the exchange (pdfDocumentOptions, both fonts registered as `regular` and `bold`)
 * and how to finish it (`PdfEnding`, the last row at `y`), answering its bytes: every document
 * the exchange writes, the transport order and the e-CMR, opens and ends so.
 */
export function openPdf(title: string, created: Date, margin: number) {
  const { regular, bold } = pdfFonts();
  const doc = new PDFDocument(pdfDocumentOptions(title, created, margin));
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  // pdfkit takes a parsed fontkit font as well as a file (its types name only the file).
  const font = (f: Font) => f as unknown as PDFKit.Mixins.PDFFontSource;
  doc.registerFont('regular', font(regular));
  doc.registerFont('bold', font(bold));
  const finish = async (y: number, ending: PdfEnding): Promise<Buffer> => {
    const width = doc.page.width - 2 * margin;
    doc.font('regular').fontSize(ending.size).fillColor('#444');
    let at = y;
    if (at + doc.heightOfString(ending.note, { width }) > doc.page.height - margin) {
      doc.addPage();
      at = margin;
    }
    doc.text(ending.note, margin, at + ending.gap, { width });
    doc.file(Buffer.from(ending.file.json, 'utf8'), {
      name: ending.file.name,
      type: 'application/json',
      description: title,
      creationDate: created,
      modifiedDate: created,
    });
    doc.end();
    await done;
    return Buffer.concat(chunks);
  };
  return { doc, finish };
}

type Glyph = fontkit.Glyph & { _decode(): unknown };

/**
 * The font with each glyph's outline decoded once per process (docs/choices.md, "The transport
 * order's PDF, cheaper"): the subset pdfkit embeds in every document decodes each glyph it takes
 * again only to see whether it is composite (fontkit TTFSubset), an eighth of a transport order's
 * rendering. The outline of a glyph of a parsed font never changes and its readers only read it.
 * Everything else is the font itself (its prototype); the subset reaches its glyphs through it.
 */
function decodingOnce(parsed: Font): Font {
  const font = parsed as fontkit.Font;
  const getGlyph = font.getGlyph.bind(font);
  const once = new WeakSet<object>();
  const decoding = Object.create(font) as fontkit.Font;
  decoding.getGlyph = ((id: number, codePoints?: number[]) => {
    const glyph = getGlyph(id, codePoints) as Glyph | null;
    if (glyph && !once.has(glyph)) {
      once.add(glyph);
      const decode = glyph._decode.bind(glyph);
      let decoded: { value: unknown } | undefined;
      glyph._decode = () => {
        decoded ??= { value: decode() };
        return decoded.value;
      };
    }
    return glyph;
  }) as fontkit.Font['getGlyph'];
  return decoding;
}

/**
 * The layouts of words pdfkit keeps, shared by every document of the process, per font
 * (docs/choices.md, "The transport order's PDF, cheaper"). pdfkit lays text out word by word
 * (fontkit's OpenType shaping) and keeps each word's glyph run for one document (its
 * `layoutCache`); laying the same labels out again in every order was a quarter of its rendering.
 * A word's run depends on the word and the font alone (no features are asked for), and pdfkit only
 * reads a run once kept (justified text copies the one it changes), so one document's run serves
 * the next. A font's kept words start again every DOCUMENTS_PER_LAYOUTS documents (the names,
 * numbers and dates of each order add some).
 */
const layouts = new WeakMap<object, { words: Record<string, unknown>; documents: number }>();
export const DOCUMENTS_PER_LAYOUTS = 200;

/** Opens the document's embedded font `name` (pdfkit's EmbeddedFont) with the process's layouts of its font. */
function shareLayouts(doc: PDFKit.PDFDocument, name: string): void {
  doc.font(name);
  const embedded = (doc as unknown as { _font?: { font?: object; layoutCache?: Record<string, unknown> } })._font;
  if (!embedded?.font || !embedded.layoutCache) return;
  let kept = layouts.get(embedded.font);
  if (!kept || kept.documents >= DOCUMENTS_PER_LAYOUTS) {
    kept = { words: Object.create(null) as Record<string, unknown>, documents: 0 };
    layouts.set(embedded.font, kept);
  }
  kept.documents++;
  embedded.layoutCache = kept.words;
}

const en = translator('eng');
const de = translator('deu');
/** A label in both languages: `Carrier / Frachtführer`. */
const both = (key: MessageKey) => `${en(key)} / ${de(key)}`;

const MARGIN = 48;
const LABEL_WIDTH = 170;
const GAP = 12;

const or = (v: string | number | null | undefined, none = '–') => (v === null || v === undefined || v === '' ? none : String(v));

/**
 * A value in both readers' formats, English first as the labels are: `2031-05-05 08:00 / 05.05.2031
 * 08:00`, `4,200 kg / 4.200 kg`; once when both read the same (docs/choices.md, "The transport order").
 */
const inBoth = (format: (language: 'eng' | 'deu') => string, none = '–') => {
  const [a, b] = [format('eng'), format('deu')];
  return !a && !b ? none : a === b ? a : `${a} / ${b}`;
};
const kg = (v: number | string | null) => inBoth((l) => formatKg(v, l));
const stamp = (v: string | null) => inBoth((l) => formatStamp(v, l));

/** A company with its address, VAT id, contact and who confirmed; no internal ids (the JSON keeps them). */
function partyLines(p: OrderParty): string[] {
  const address = p.postal_address;
  const place = [address.postcode, address.city_name].filter(Boolean).join(' ');
  const contact = p.defined_trade_contact;
  return [
    p.name,
    [place, address.country_code].filter(Boolean).join(', ') || `${both('order.address')}: –`,
    `${both('order.vat_id')}: ${or(p.tax_registration?.id)}`,
    ...(contact
      ? [
          `${both('order.contact')}: ${contact.person_name} <${contact.email}>${
            contact.telephone ? `, ${both('order.phone')} ${contact.telephone}` : ''
          }`,
        ]
      : []),
    `${both('order.confirmed_by')}: ${p.confirmed_by ? `${p.confirmed_by.name} <${p.confirmed_by.email}>` : '–'}${
      p.confirmed ? `, ${stamp(p.confirmed)}` : ''
    }`,
  ];
}

function placeLines(p: OrderPlace): string[] {
  const period = p.scheduled_occurrence_period;
  return [
    [p.id, p.postal_address.country_code].filter(Boolean).join(', ') || '–',
    ...(p.name ? [p.name] : []),
    `${both('order.window')}: ${inBoth((l) => formatWindow(period.start_date_time, period.end_date_time, l))}`,
  ];
}

function packageLine(p: OrderItem, i: number): string {
  const { length, width, height } = p.dimensions;
  const size = [length, width, height].some((v) => v !== null)
    ? `${inBoth((l) => [length, width, height].map((v) => (v === null ? '–' : formatNumber(v, l))).join(' × '))} cm`
    : '';
  const weight = p.gross_weight === null ? '' : `${kg(p.gross_weight)}${p.weight_per_package ? ` ${both('order.each')}` : ''}`;
  const stack = p.stackable === null ? '' : both(p.stackable ? 'order.stackable' : 'order.not_stackable');
  return [`${i + 1}. ${or(p.goods_unit_quantity)} ×`, size, weight, stack].filter(Boolean).join(', ');
}

/** The rows of the order: a heading, or a label and its lines. */
/** A line of a document's table: a section's heading, or a label with its value's lines. */
export type Row = { heading: string } | { label: string; lines: string[] };

/** How a table of rows is laid out: its left edge and width, the label's column, and each kind of row's size and spacing. */
export interface RowLayout {
  margin: number;
  width: number;
  labelWidth: number;
  gap: number;
  heading: { size: number; before: number; after: number };
  row: { size: number; after: number };
}

/**
 * Draws the rows from `y` down (the transport order's and the e-CMR's tables): a heading with a
 * rule under it, then labelled values in two columns, a new page where a row would not fit.
 * Answers the `y` below the last row. Needs the fonts `regular` and `bold` registered.
 */
export function drawRows(doc: PDFKit.PDFDocument, rows: Iterable<Row>, y: number, layout: RowLayout): number {
  const { margin, width, labelWidth, gap } = layout;
  const valueX = margin + labelWidth + gap;
  const valueWidth = width - labelWidth - gap;
  for (const row of rows) {
    if ('heading' in row) {
      if (y > doc.page.height - margin - 60) {
        doc.addPage();
        y = margin;
      }
      y += layout.heading.before;
      doc.font('bold').fontSize(layout.heading.size).text(row.heading, margin, y, { width });
      y = doc.y + 2;
      doc
        .moveTo(margin, y)
        .lineTo(margin + width, y)
        .lineWidth(0.5)
        .strokeColor('#999')
        .stroke();
      y += layout.heading.after;
      continue;
    }
    doc.fontSize(layout.row.size);
    const value = row.lines.join('\n');
    const height = Math.max(
      doc.font('bold').heightOfString(row.label, { width: labelWidth }),
      doc.font('regular').heightOfString(value, { width: valueWidth }),
    );
    if (y + height > doc.page.height - margin) {
      doc.addPage();
      y = margin;
    }
    doc.font('bold').text(row.label, margin, y, { width: labelWidth });
    doc.font('regular').text(value, valueX, y, { width: valueWidth });
    y += height + layout.row.after;
  }
  return y;
}

export function orderRows(o: TransportOrder): Row[] {
  const { applied_amount: amount, currency_id: currency } = o.applicable_service_charge;
  const money =
    amount === null
      ? '–'
      : `${amount} ${currency ?? ''}`.trim() +
        (currency ? ` (${formatMoney(amount, currency, 'eng')} · ${formatMoney(amount, currency, 'deu')})` : '');
  const refs = Object.entries(o.references);
  const transport = o.transport;
  const days = o.payment_terms?.due_days;
  return [
    { heading: both('order.parties') },
    { label: `${both('order.consignor')} (CMR 1)`, lines: partyLines(o.consignor) },
    { label: `${both('order.carrier')} (CMR 16)`, lines: partyLines(o.carrier) },
    { label: `${both('order.consignee')} (CMR 2)`, lines: o.consignee ? o.consignee.name.split(/\r?\n/) : [both('order.consignee_none')] },
    { heading: both('order.route') },
    { label: `${both('order.taking_over')} (CMR 4)`, lines: placeLines(o.carrier_acceptance_location) },
    ...(o.references.loading_ref ? [{ label: both('order.loading_ref'), lines: [o.references.loading_ref] }] : []),
    { label: `${both('order.delivery')} (CMR 3)`, lines: placeLines(o.consignee_receipt_location) },
    { label: both('order.transport'), lines: transport ? transportLines(transport) : [both('order.transport_none')] },
    { heading: both('order.goods') },
    { label: `${both('order.description')} (CMR 9)`, lines: [or(o.nature_identification_cargo?.identification_text)] },
    { label: `${both('order.packages')} (CMR 7)`, lines: [or(o.number_of_packages), ...o.included_consignment_item.map(packageLine)] },
    { label: `${both('order.gross_weight')} (CMR 11)`, lines: [kg(o.gross_weight)] },
    { label: both('order.dangerous'), lines: [or(o.dangerous_goods?.information)] },
    { heading: both('order.agreement') },
    { label: both('order.price'), lines: [money] },
    {
      label: both('order.payment_term'),
      lines: [days === undefined || days === null ? '–' : `${en('order.payment_days', { days })} / ${de('order.payment_days', { days })}`],
    },
    { label: both('order.references'), lines: refs.length ? refs.map(([k, v]) => `${k}: ${v}`) : ['–'] },
    { label: both('order.awarded'), lines: [`${stamp(o.issued)} (${o.timezone})`] },
    ...(o.version !== undefined && o.version > 1
      ? [{ label: both('order.version'), lines: [`${o.version}, ${stamp(o.version_issued ?? null)}`] }]
      : []),
  ];
}

/** The truck and the driver as the carrier gave them. */
function transportLines(t: NonNullable<TransportOrder['transport']>): string[] {
  return [
    `${both('order.plate')}: ${t.used_transport_means.id}`,
    `${both('order.driver')}: ${t.driver.name}${t.driver.telephone ? `, ${both('order.phone')} ${t.driver.telephone}` : ''}`,
  ];
}

/** The embedded JSON's file name: `transport-order-N.json` for version 1, `transport-order-N-v2.json` after. */
export const orderJsonName = (o: Pick<TransportOrder, 'freight' | 'version'>) =>
  `transport-order-${o.freight}${(o.version ?? 1) > 1 ? `-v${o.version}` : ''}.json`;

/**
 * The PDF's bytes, with the order's JSON text (`json`, as stored) embedded; `created` (the award)
 * is its creation date, so the same order renders the same text.
 */
export async function transportOrderPdf(o: TransportOrder, json: string, created: Date): Promise<Buffer> {
  const title = `${both('order.title')} ${orderDisplayId(o)}`;
  const { doc, finish } = openPdf(title, created, MARGIN);
  // Opened in the order the text first asks for them, so the resources are named as before.
  shareLayouts(doc, 'bold');
  shareLayouts(doc, 'regular');

  const width = doc.page.width - 2 * MARGIN;
  doc.font('bold').fontSize(16).text(title, MARGIN, MARGIN, { width });
  doc.moveDown(0.3);
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#444')
    .text(
      `${both('order.issued')}: ${stamp(o.issued)} (${o.timezone})${
        o.version !== undefined && o.version > 1
          ? ` · ${en('order.version_of', { version: o.version, issued: stamp(o.version_issued ?? null) })}`
          : ''
      }`,
      { width },
    );
  doc.fillColor('black');
  let y = doc.y + 10;
  y = drawRows(doc, orderRows(o), y, {
    margin: MARGIN,
    width,
    labelWidth: LABEL_WIDTH,
    gap: GAP,
    heading: { size: 11, before: 6, after: 5 },
    row: { size: 9, after: 6 },
  });
  const note = [
    en('order.note'),
    de('order.note'),
    `${en('order.json_note', { freight: o.freight })} ${de('order.json_note', { freight: o.freight })}`,
    `${o.format}`,
  ].join('\n');
  return finish(y, { note, size: 8, gap: 10, file: { name: orderJsonName(o), json } });
}
