import { nativeBuiltins } from './builtins.ts';

// PDF.js's legacy build (the one that runs on Node 20) carries core-js polyfills that replace
// built-ins for the whole process, on import and again when its worker module loads with the first
// document: JSON.parse, JSON.stringify, Array.prototype.push and Function.prototype.toString (which
// then reports the replacements as native code). Their JSON.parse accepts a truncated object when
// given a reviver ('{"route": 1,' gave {"route": 1}; platform/error-codes failed in a batch after
// a file that reads PDFs); their JSON.stringify runs a regular expression per character and made
// every test of the process slower (a 13 MB body: 2.2 s instead of 20 ms; an API file 15-20 % more
// CPU), and a batch imports its files first (tests/support/batch.ts), so one file reading PDFs
// slowed every other file of its process. The built-ins as they were go back after the import and
// after each document is opened; what the polyfills added (Promise.withResolvers, which PDF.js
// needs on Node 20, and the like) stays.
const builtins = nativeBuiltins();
const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
builtins.restore();

/**
 * What a PDF says, read by Mozilla's PDF.js (pdfjs-dist, a development dependency): the text of
 * every page, and the files embedded in it. Tests compare a PDF with what it should print
 * through these, never through its bytes.
 */

async function open(bytes: Uint8Array, options: { isOffscreenCanvasSupported?: boolean } = {}) {
  // PDF.js takes the buffer over: hand it a copy.
  try {
    return await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0, ...options })
      .promise;
  } finally {
    builtins.restore(); // its worker module's polyfills, loaded with the first document
  }
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

/** The images drawn on the first page, as RGBA pixels (PDF.js decodes them; no canvas needed). */
export async function pdfImages(bytes: Uint8Array): Promise<Array<{ width: number; height: number; rgba: Uint8ClampedArray }>> {
  const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await open(bytes, { isOffscreenCanvasSupported: false });
  try {
    const page = await doc.getPage(1);
    const ops = await page.getOperatorList();
    const images: Array<{ width: number; height: number; rgba: Uint8ClampedArray }> = [];
    for (let i = 0; i < ops.fnArray.length; i++) {
      if (ops.fnArray[i] !== OPS.paintImageXObject) continue;
      const name = ops.argsArray[i][0] as string;
      const img = await new Promise<{ width: number; height: number; kind: number; data: Uint8Array | Uint8ClampedArray }>((resolve) =>
        page.objs.get(name, resolve),
      );
      const n = img.width * img.height;
      const rgba = new Uint8ClampedArray(n * 4);
      if (img.kind === 3) rgba.set(img.data.subarray(0, n * 4));
      else if (img.kind === 2)
        for (let p = 0; p < n; p++) rgba.set([img.data[p * 3]!, img.data[p * 3 + 1]!, img.data[p * 3 + 2]!, 255], p * 4);
      else {
        // 1 bit per pixel, rows padded to bytes
        const row = (img.width + 7) >> 3;
        for (let y = 0; y < img.height; y++)
          for (let x = 0; x < img.width; x++) {
            const v = (img.data[y * row + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
            rgba.set([v, v, v, 255], (y * img.width + x) * 4);
          }
      }
      images.push({ width: img.width, height: img.height, rgba });
    }
    return images;
  } finally {
    await doc.destroy();
  }
}
