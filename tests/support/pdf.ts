/**
 * Looking at a PDF the way a person would, with Debian's poppler-utils (`.ci/run` installs them): its text
 * (`pdftotext`), its page count (`pdfinfo`), its fonts (`pdffonts`: embedded? a subset?) and a page rendered to a
 * grey picture (`pdftoppm -gray`, a PGM read here) whose regions can be asked how much ink they hold.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs a poppler tool on the bytes written to a temporary file. */
function withFile<T>(bytes: Buffer, work: (path: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'hod-pdf-'));
  try {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, bytes);
    return work(path, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of the whole document (or of one page), as pdftotext reads it. */
export const pdfText = (bytes: Buffer, page?: number): string =>
  withFile(bytes, (path) => execFileSync('pdftotext', ['-enc', 'UTF-8', ...(page ? ['-f', String(page), '-l', String(page)] : []), path, '-'], { encoding: 'utf8' }));

/** How many pages the document has. */
export const pdfPages = (bytes: Buffer): number =>
  withFile(bytes, (path) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [path], { encoding: 'utf8' }))?.[1] ?? NaN));

export interface PdfFont {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
  unicode: boolean;
}

/** The fonts the document uses (pdffonts). */
export const pdfFonts = (bytes: Buffer): PdfFont[] =>
  withFile(bytes, (path) => execFileSync('pdffonts', [path], { encoding: 'utf8' }).split('\n').slice(2).filter((l) => l.trim()).map((line) => {
    // name, type (may hold spaces), encoding, emb, sub, uni, object, id: the flags are the last yes/no columns.
    const cols = line.trim().split(/\s+/);
    const [emb, sub, uni] = cols.slice(-5, -2);
    return { name: cols[0], type: line.slice(37, 55).trim(), embedded: emb === 'yes', subset: sub === 'yes', unicode: uni === 'yes' };
  }));

/** A page rendered in grey: width × height pixels of 0 (black) … 255 (white), at `dpi`. */
export interface PageImage {
  width: number;
  height: number;
  dpi: number;
  pixels: Uint8Array;
}

/** Renders one page (1-based) to a grey picture. */
export const renderPage = (bytes: Buffer, page = 1, dpi = 72): PageImage =>
  withFile(bytes, (path, dir) => {
    execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', path, join(dir, 'page')]);
    const pgm = readFileSync(join(dir, 'page.pgm'));
    // P5 header: magic, width, height, maxval, each followed by white space (no comments from pdftoppm).
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 40).toString('latin1'));
    if (!header) throw new Error('pdftoppm did not write a PGM');
    const width = Number(header[1]);
    const height = Number(header[2]);
    return { width, height, dpi, pixels: new Uint8Array(pgm.subarray(header[0].length, header[0].length + width * height)) };
  });

/**
 * The share of dark pixels (below mid grey) in a box given in PDF points from the page's top-left corner.
 * @example inkIn(image, { x: 250, y: 36, w: 95, h: 30 }) // 0.18
 */
export function inkIn(image: PageImage, box: { x: number; y: number; w: number; h: number }): number {
  const scale = image.dpi / 72;
  const x0 = Math.max(0, Math.floor(box.x * scale));
  const y0 = Math.max(0, Math.floor(box.y * scale));
  const x1 = Math.min(image.width, Math.ceil((box.x + box.w) * scale));
  const y1 = Math.min(image.height, Math.ceil((box.y + box.h) * scale));
  let dark = 0;
  for (let y = y0; y < y1; y += 1) for (let x = x0; x < x1; x += 1) if (image.pixels[y * image.width + x] < 128) dark += 1;
  return dark / Math.max(1, (x1 - x0) * (y1 - y0));
}
