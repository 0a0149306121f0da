#!/usr/bin/env node
/**
 * Fixes what the lint rule "another server area only through its public module" (eslint.config.mjs, AREA_BOUNDARIES)
 * reports, mechanically: every `import { … } from '../<area>/<file>'` of another area's inner file in server/ becomes
 * an import from '../<area>' (merged with one already there), and the names it takes are added to that area's
 * server/<area>/index.ts. Run `node scripts/area-imports.mjs` from the repository root, then typecheck and lint.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/** Must match INFRASTRUCTURE_AREAS in eslint.config.mjs. */
const INFRASTRUCTURE = new Set(['db', 'http', 'calls', 'jobs', 'audit', 'files']);
const root = process.cwd();
const server = join(root, 'server');
const IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)';/g;

/** @type {Map<string, Map<string, Map<string, boolean>>>} area → inner file → name → type only */
const exportsOf = new Map();
const need = (area, file, name, typeOnly) => {
  const files = exportsOf.get(area) ?? new Map();
  exportsOf.set(area, files);
  const names = files.get(file) ?? new Map();
  files.set(file, names);
  names.set(name, (names.get(name) ?? true) && typeOnly);
};

const sourceFiles = readdirSync(server, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && f.includes(sep));
let statements = 0;
for (const file of sourceFiles) {
  const area = file.split(sep)[0];
  const path = join(server, file);
  const source = readFileSync(path, 'utf8');
  /** @type {Map<string, string[]>} */
  const merged = new Map();
  let text = source.replace(IMPORT, (whole, typeKeyword, names, spec) => {
    if (!spec.startsWith('.')) return whole;
    const target = relative(server, normalize(join(dirname(path), spec))).split(sep);
    if (target.length < 2 || target[0].startsWith('..')) return whole;
    const [other, ...rest] = target;
    const inner = rest.join('/');
    const isIndex = inner === 'index';
    if (other === area || INFRASTRUCTURE.has(other)) return whole;
    const items = names.split(',').map((s) => s.trim()).filter(Boolean).map((item) => {
      const typeOnly = Boolean(typeKeyword) || item.startsWith('type ');
      const bare = item.replace(/^type\s+/, '');
      if (!isIndex) need(other, inner, bare.split(/\s+as\s+/)[0], typeOnly);
      return `${typeOnly ? 'type ' : ''}${bare}`;
    });
    if (!isIndex) statements += 1;
    let indexSpec = relative(dirname(path), join(server, other)).split(sep).join('/');
    if (!indexSpec.startsWith('.')) indexSpec = `./${indexSpec}`;
    const known = merged.get(indexSpec);
    if (known) {
      known.push(...items);
      return '@@AREA-DROP@@';
    }
    merged.set(indexSpec, items);
    return `@@AREA-KEEP ${indexSpec}@@`;
  });
  if (merged.size === 0) continue;
  text = text.replace(/@@AREA-KEEP ([^@]+)@@/g, (_, spec) => {
    const items = [...new Set(merged.get(spec))];
    return items.every((i) => i.startsWith('type '))
      ? `import type { ${items.map((i) => i.slice(5)).join(', ')} } from '${spec}';`
      : `import { ${items.join(', ')} } from '${spec}';`;
  }).replace(/@@AREA-DROP@@\n?/g, '');
  if (text !== source) writeFileSync(path, text);
}

const EXPORT = /^export \{([^}]*)\} from '\.\/([^']+)';$/;
for (const [area, files] of exportsOf) {
  const indexPath = join(server, area, 'index.ts');
  const lines = existsSync(indexPath)
    ? readFileSync(indexPath, 'utf8').trimEnd().split('\n')
    : [`/** The ${area} area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */`];
  for (const [inner, names] of files) {
    const at = lines.findIndex((line) => EXPORT.exec(line)?.[2] === inner);
    if (at >= 0) {
      for (const item of EXPORT.exec(lines[at])[1].split(',').map((s) => s.trim()).filter(Boolean)) {
        const name = item.replace(/^type\s+/, '');
        names.set(name, (names.get(name) ?? true) && item.startsWith('type '));
      }
    }
    const sorted = [...names.keys()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    const line = `export { ${sorted.map((n) => (names.get(n) ? `type ${n}` : n)).join(', ')} } from './${inner}';`;
    if (at >= 0) lines[at] = line;
    else lines.push(line);
  }
  writeFileSync(indexPath, `${lines.join('\n')}\n`);
}
console.log(`${statements} import(s) of another area's inner file now go through its index.ts`);
