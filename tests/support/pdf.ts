import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * What a PDF says, read by Mozilla's PDF.js (pdfjs-dist, a development dependency): the text of
 * every page, and the files embedded in it. Tests compare a PDF with what it should print
 * through these, never through its bytes.
 */

async function open(bytes: Uint8Array) {
  // PDF.js takes the buffer over: hand it a copy.
  return getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
}

/** The text of every page, in reading order, its lines joined by spaces (runs of white space as one). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await open(bytes);
  try {
    const parts: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) if ('str' in item) parts.push(item.str, item.hasEOL ? ' ' : '');
    }
    return parts.join('').replace(/\s+/g, ' ').trim();
  } finally {
    await doc.destroy();
  }
}

/** The files embedded in the PDF, by name, with their bytes. */
export async function pdfAttachments(bytes: Uint8Array): Promise<Map<string, Buffer>> {
  const doc = await open(bytes);
  try {
    const found = ((await doc.getAttachments()) ?? {}) as Record<string, { filename: string; content: Uint8Array }>;
    return new Map(Object.values(found).map((a) => [a.filename, Buffer.from(a.content)]));
  } finally {
    await doc.destroy();
  }
}

/** How many pages the PDF has. */
export async function pdfPages(bytes: Uint8Array): Promise<number> {
  const doc = await open(bytes);
  try {
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
}
