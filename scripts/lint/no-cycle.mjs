/**
 * Lint rule `local/no-cycle`: no import cycle at all, type-only imports included (import-x/no-cycle skips `import
 * type`, and has no option not to). An import is reported when the file it names imports the importing file back,
 * directly or through others; the message names the way back. The graph: scripts/lint/import-graph.mjs.
 */
import { relative } from 'node:path';
import { forgetGraph, inOneCycle, pathBetween, resolveImport } from './import-graph.mjs';

const root = new URL('../..', import.meta.url).pathname;
/** The lint run a graph was read for: a later run (an editor's next lint of a changed file) reads it again. */
let lintedBefore = new Set();

/** @type {import('eslint').Rule.RuleModule} */
export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import cycle: {{way}} (move the shared types to a file both import).' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (lintedBefore.has(file)) {
      forgetGraph();
      lintedBefore = new Set();
    }
    lintedBefore.add(file);
    const check = (node) => {
      const source = node.source;
      if (!source || typeof source.value !== 'string') return;
      const target = resolveImport(source.value, file);
      if (!target || target === file || !inOneCycle(file, target)) return;
      const way = [file, target, ...(pathBetween(target, file) ?? [])].map((p) => relative(root, p)).join(' → ');
      context.report({ node, messageId: 'cycle', data: { way } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType(node) {
        const literal = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.source ?? node.argument;
        if (literal && typeof literal.value === 'string') check({ ...node, source: literal });
      },
    };
  },
};

export default { rules: { 'no-cycle': noCycle } };
