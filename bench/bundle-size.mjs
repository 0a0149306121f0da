#!/usr/bin/env node
/**
 * First-load JavaScript of the shell: the gzip sizes of the scripts `out/index.html` loads in a
 * modern browser (`<script src>`, script preloads and the Turbopack runtime's chunk list; `noModule`
 * polyfills are skipped), plus the stylesheet and the HTML itself. Screens are lazy chunks and
 * are not counted. Run after `next build`:  node bench/bundle-size.mjs [out-dir] [--budget=160]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const outDir = args.find((a) => !a.startsWith('--')) ?? new URL('../out', import.meta.url).pathname;
const budget = Number(args.find((a) => a.startsWith('--budget='))?.slice(9) ?? 160);
const indexFile = join(outDir, 'index.html');
if (!existsSync(indexFile)) {
  console.error(`${indexFile} not found: run \`npx next build\` first.`);
  process.exit(1);
}
const html = readFileSync(indexFile, 'utf8');

const local = (src) => normalize(src.replace(/^\.?\//, '').replace(/[?#].*$/, ''));
const scripts = new Set();
for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
  const src = /\bsrc="([^"]+)"/.exec(tag)?.[1];
  if (src && !/\bnoModule\b/i.test(tag)) scripts.add(local(src));
}
for (const [, href] of html.matchAll(/<link\b[^>]*\bas="script"[^>]*\bhref="([^"]+)"/g)) scripts.add(local(href));
for (const [, list] of html.matchAll(/"otherChunks":\[([^\]]*)\]/g)) {
  for (const [, chunk] of list.matchAll(/"([^"]+\.js)"/g)) scripts.add(local(`_next/${chunk}`));
}
const styles = new Set([...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map(([, h]) => local(h)));

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kB = (n) => (n / 1024).toFixed(1);
const measure = (files) =>
  [...files].map((file) => {
    const buf = readFileSync(join(outDir, file));
    return { file, raw: buf.length, gzip: gz(buf) };
  });

const js = measure(scripts).sort((a, b) => b.gzip - a.gzip);
const css = measure(styles);
const sum = (rows, key) => rows.reduce((n, r) => n + r[key], 0);
const jsGzip = sum(js, 'gzip');

console.log('First-load JavaScript of the shell (gzip -9):');
for (const r of js) console.log(`  ${kB(r.gzip).padStart(7)} kB  (${kB(r.raw).padStart(7)} kB raw)  ${r.file}`);
console.log(`  ${kB(jsGzip).padStart(7)} kB  total JavaScript, ${js.length} files (budget ${budget} kB)`);
console.log(`  ${kB(sum(css, 'gzip')).padStart(7)} kB  CSS (${css.map((r) => r.file).join(', ')})`);
console.log(`  ${kB(gz(Buffer.from(html))).padStart(7)} kB  index.html`);
console.log(`first-load JS: ${kB(jsGzip)} kB gzip`);
if (args.includes('--check') && jsGzip / 1024 > budget) {
  console.error(`over budget: ${kB(jsGzip)} kB > ${budget} kB`);
  process.exit(1);
}
