/**
 * The project's import graph, type-only imports included (`import type`, `export … from`, `import('…')`), read with
 * TypeScript's own resolution (tsconfig.json's paths), and its cycles: two files are in one cycle when each reaches
 * the other (one strongly connected component). Read by the lint rule `local/no-cycle` (scripts/lint/no-cycle.mjs).
 * A lint run reads each file once; a long-lived lint process (an editor's) reads the graph again after `forgetGraph()`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
const host = ts.createCompilerHost(options);
let cache = ts.createModuleResolutionCache(root, (f) => f, options);
let imports = new Map();
/** Tarjan's state: a file's component (its root file) once known. */
let component = new Map();

/** The project file (not under node_modules, not a declaration) that `specifier` names from `file`, if any. */
export function resolveImport(specifier, file) {
  const resolved = ts.resolveModuleName(specifier, file, options, host, cache).resolvedModule;
  return resolved && !resolved.isExternalLibraryImport && !resolved.resolvedFileName.endsWith('.d.ts') ? resolved.resolvedFileName : undefined;
}

/** The project files that `file` imports, types included. */
export function importsOf(file) {
  let found = imports.get(file);
  if (found) return found;
  found = [];
  imports.set(file, found);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return found;
  }
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    const target = resolveImport(fileName, file);
    if (target && !found.includes(target)) found.push(target);
  }
  return found;
}

/** Finds the components of everything reachable from `start` (Tarjan, iterative). */
function explore(start) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const work = [[start, 0]];
  index.set(start, 0);
  low.set(start, 0);
  stack.push(start);
  onStack.add(start);
  let counter = 1;
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [node, i] = frame;
    const next = importsOf(node)[i];
    if (next !== undefined) {
      frame[1] = i + 1;
      if (component.has(next)) continue;
      if (!index.has(next)) {
        index.set(next, counter);
        low.set(next, counter);
        counter += 1;
        stack.push(next);
        onStack.add(next);
        work.push([next, 0]);
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(node)));
    }
    if (low.get(node) === index.get(node)) {
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.set(member, node);
      } while (member !== node);
    }
  }
}

/** Whether `a` and `b` import each other, directly or through other files. */
export function inOneCycle(a, b) {
  if (!component.has(a)) explore(a);
  if (!component.has(b)) explore(b);
  return component.get(a) === component.get(b);
}

/** A path of imports from `from` back to `to` (the files after `from`), or undefined when there is none. */
export function pathBetween(from, to) {
  const seen = new Set([from]);
  const queue = [[from]];
  while (queue.length > 0) {
    const route = queue.shift();
    for (const next of importsOf(route[route.length - 1])) {
      if (next === to) return [...route.slice(1), next];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([...route, next]);
      }
    }
  }
  return undefined;
}

/** Forgets what was read (files may have changed since). */
export function forgetGraph() {
  cache = ts.createModuleResolutionCache(root, (f) => f, options);
  imports = new Map();
  component = new Map();
}
