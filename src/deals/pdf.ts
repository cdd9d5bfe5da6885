/**
 * A one-page PDF of plain text lines (PDF 1.4, Helvetica in WinAnsi encoding), written by hand:
 * the transport order needs no more, and no PDF library is installed. Characters outside
 * Latin-1 are written as `?`; the cross-reference table holds the exact byte offsets.
 */

const PAGE_WIDTH = 595; // A4 in points
const PAGE_HEIGHT = 842;
const MARGIN = 56;
const LINES_MAX = 60;

export interface PdfLine {
  text: string;
  /** a heading: larger type */
  heading?: boolean;
}

/** A PDF string literal of the text: Latin-1, with `\`, `(` and `)` escaped. */
function literal(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const c = code < 32 || code > 255 ? '?' : ch;
    out += c === '\\' || c === '(' || c === ')' ? `\\${c}` : c;
  }
  return `(${out})`;
}

export function textPdf(title: string, lines: readonly PdfLine[]): Buffer {
  let y = PAGE_HEIGHT - MARGIN;
  const ops: string[] = ['BT'];
  for (const line of lines.slice(0, LINES_MAX)) {
    const size = line.heading ? 16 : 11;
    y -= line.heading ? 26 : 16;
    ops.push(`/F1 ${size} Tf`, `1 0 0 1 ${MARGIN} ${y} Tm`, `${literal(line.text)} Tj`);
  }
  ops.push('ET');
  const stream = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    `<< /Title ${literal(title)} /Producer (freight-exchange) >>`,
  ];
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
