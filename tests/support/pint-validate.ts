/**
 * OpenPeppol's own validation of a JP PINT 1.1.3 invoice, offline: both rule sets of the bundle in
 * ../shared/einvoice/pint-jp-1.1.3 (README there) — the shared PINT rules (`PINT-UBL-validation-preprocessed`) and
 * Japan's (`PINT-jurisdiction-aligned-rules`) — run by SaxonJS on the XML, their SVRL reports read for failed
 * assertions. An invoice is valid when no assertion of flag `fatal` fails.
 *
 * SaxonJS runs only compiled stylesheets (SEF); the `xslt3` CLI compiles them (about 7 s and 14 s), once per machine:
 * into os.tmpdir()/pint-sef/, named by the SHA-256 of the XSLT, and once per process into memory. A validation after
 * that takes about 0.1 s (both rule sets; the first of a process about 0.5 s).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The bundle: `../shared/einvoice/pint-jp-1.1.3` beside the checkout (CI puts `shared` there), or PINT_BUNDLE. */
export const PINT_BUNDLE = process.env.PINT_BUNDLE ?? fileURLToPath(new URL('../../../shared/einvoice/pint-jp-1.1.3', import.meta.url));
export const PINT_RULE_SETS = ['PINT-UBL-validation-preprocessed', 'PINT-jurisdiction-aligned-rules'] as const;
/** The official example invoices of the bundle. */
export const PINT_EXAMPLES = join(PINT_BUNDLE, 'trn-invoice', 'example');

export interface PintFailure {
  /** The rule, e.g. `ibr-co-14` or `aligned-ibrp-051-jp`. */
  id: string;
  text: string;
  /** XPath of the node the rule failed on. */
  location: string;
}

export interface PintReport {
  fatal: PintFailure[];
  /** Failed assertions of a lesser flag (warnings). */
  warnings: number;
}

/** What of SaxonJS 2 is used here (the package has no type declarations). */
interface SaxonJs {
  transform(
    options: { stylesheetInternal: unknown; sourceText: string; destination: 'serialized' },
    mode: 'async',
  ): Promise<{ principalResult: string }>;
}

const require = createRequire(import.meta.url);
const saxon = require('saxon-js') as SaxonJs;
const run = promisify(execFile);
/** The xslt3 command line (the package's script, run by this Node). */
const XSLT3 = require.resolve('xslt3/xslt3.js');

const stylesheets = new Map<string, Promise<unknown>>();

/** A rule set compiled (from the cache when there), parsed once per process. */
function stylesheet(name: (typeof PINT_RULE_SETS)[number]): Promise<unknown> {
  let loading = stylesheets.get(name);
  if (!loading) {
    loading = (async () => {
      const xslt = join(PINT_BUNDLE, 'trn-invoice', 'schematron', `${name}.xslt`);
      const hash = createHash('sha256').update(readFileSync(xslt)).digest('hex');
      const dir = join(tmpdir(), 'pint-sef');
      const sef = join(dir, `${name}-${hash.slice(0, 16)}.sef.json`);
      if (!existsSync(sef)) {
        mkdirSync(dir, { recursive: true });
        // Compiled under a name of its own, then renamed: a concurrent process never reads half a file.
        const part = `${sef}.${process.pid}.${Date.now()}.part.json`;
        await run(process.execPath, [XSLT3, `-xsl:${xslt}`, `-export:${part}`, '-nogo'], { maxBuffer: 16 * 1024 * 1024 });
        renameSync(part, sef);
      }
      return JSON.parse(readFileSync(sef, 'utf8')) as unknown;
    })();
    stylesheets.set(name, loading);
    loading.catch(() => stylesheets.delete(name));
  }
  return loading;
}

/** Compiles and loads both rule sets now (a test's `beforeAll`), so the first validation is as quick as the next. */
export async function preparePint(): Promise<void> {
  await Promise.all(PINT_RULE_SETS.map(stylesheet));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML text with its entities and character references resolved. */
const unescape = (text: string): string =>
  text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) =>
    ref.startsWith('#x') ? String.fromCodePoint(parseInt(ref.slice(2), 16))
      : ref.startsWith('#') ? String.fromCodePoint(Number(ref.slice(1)))
        : ENTITIES[ref] ?? whole);

/**
 * The failed assertions of an SVRL report: each `svrl:failed-assert` with its id, flag, location and text.
 * @example svrlFailures(report) // [{ id: 'ibr-co-14', flag: 'fatal', location: '/*:Invoice…', text: '[ibr-co-14]-Invoice total …' }]
 */
export function svrlFailures(svrl: string): (PintFailure & { flag: string })[] {
  return [...svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)].map(([, attrs, inner]) => {
    const attr = (name: string) => unescape(new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1] ?? '');
    const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(inner)?.[1] ?? '';
    return { id: attr('id'), flag: attr('flag'), location: attr('location'), text: unescape(text).replace(/\s+/g, ' ').trim() };
  });
}

/**
 * Both rule sets on an invoice: the failed assertions of flag `fatal` (none: the invoice is valid) and how many of a
 * lesser flag failed.
 */
export async function validatePint(xml: string): Promise<PintReport> {
  const reports = await Promise.all(PINT_RULE_SETS.map(async (name) => {
    const result = await saxon.transform({ stylesheetInternal: await stylesheet(name), sourceText: xml, destination: 'serialized' }, 'async');
    return svrlFailures(result.principalResult);
  }));
  const failures = reports.flat();
  return {
    fatal: failures.filter((f) => f.flag === 'fatal').map(({ id, text, location }) => ({ id, text, location })),
    warnings: failures.filter((f) => f.flag !== 'fatal').length,
  };
}
