/**
 * The lint rules bite (eslint.config.mjs, docs/architecture.md "Lint and layers"): small snippets placed in each layer
 * are linted with the project's own configuration, and every layer crossing, an import cycle, client-only code in shared
 * lib and a hook called conditionally are reported, while the allowed directions are not. Type-aware rules are left out
 * here (they need the whole program and say nothing of layers); `npm run lint` runs them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root, overrideConfig: [{ ...tseslint.configs.disableTypeChecked, files: ['**/*.{ts,tsx}'] }] });

/** The rule ids reported for `code` linted as if it were the file `path` (relative to the repository). */
async function rulesAt(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

const RESTRICTED = 'import-x/no-restricted-paths';

// The first lint loads the plugins and the resolver: seconds on a busy machine.
beforeAll(() => rulesAt('lib/fixture.ts', 'export {};'), 60_000);

describe('layer boundaries', () => {
  it.each([
    ['lib/fixture.ts', "import { hodGenerate } from '../server/hod/generate';\nexport const x = hodGenerate;"],
    ['lib/fixture.ts', "import { ListTable } from '../components/resource/list-table';\nexport const x = ListTable;"],
    ['lib/fixture.ts', "import RootLayout from '../app/layout';\nexport const x = RootLayout;"],
    ['lib/orders/fixture.ts', "import { useJob } from '../client/api/use-job';\nexport const x = useJob;"],
    ['lib/fixture.ts', "import { readStored } from '@/lib/client/state/storage';\nexport const x = readStored;"],
    ['server/fixture.ts', "import { ListTable } from '../components/resource/list-table';\nexport const x = ListTable;"],
    ['server/resources/fixture.ts', "import { useMasterOptions } from '../../lib/client/list/use-master-options';\nexport const x = useMasterOptions;"],
    ['server/fixture.ts', "import RootLayout from '../app/layout';\nexport const x = RootLayout;"],
    ['components/fixture.ts', "import { buildApp } from '../server/app';\nexport const x = buildApp;"],
    ['components/ui/fixture.ts', "import RootLayout from '@/app/layout';\nexport const x = RootLayout;"],
    ['app/fixture.ts', "import { buildApp } from '../server/app';\nexport const x = buildApp;"],
    ['bench/fixture.ts', "import { call } from '../lib/client/api/fetcher';\nexport const x = call;"],
  ])('%s: %s is refused', async (path, code) => {
    expect(await rulesAt(path, code)).toContain(RESTRICTED);
  });

  it.each([
    ['lib/client/list/fixture.ts', "import { listFilters } from '../../list/list-state';\nimport { call } from '../api/fetcher';\nexport const x = [listFilters, call];"],
    ['server/fixture.ts', "import { MESSAGES } from '../lib/protocol';\nimport { buildApp } from './app';\nexport const x = [MESSAGES, buildApp];"],
    ['components/fixture.ts', "import { useJob } from '../lib/client/api/use-job';\nimport { MESSAGES } from '../lib/protocol';\nexport const x = [useJob, MESSAGES];"],
    ['app/fixture.ts', "import { Toaster } from '../components/ui/alert';\nexport const x = Toaster;"],
  ])('%s: the allowed direction passes', async (path, code) => {
    expect(await rulesAt(path, code)).toEqual([]);
  });

  it('shared lib and the server use neither React nor the browser', async () => {
    expect(await rulesAt('lib/fixture.ts', "import { useState } from 'react';\nexport const x = useState;")).toContain('no-restricted-imports');
    expect(await rulesAt('lib/fixture.ts', "import useSWR from 'swr';\nexport const x = useSWR;")).toContain('no-restricted-imports');
    expect(await rulesAt('server/fixture.ts', 'export const x = (): string => window.location.href;')).toContain('no-restricted-globals');
    expect(await rulesAt('lib/fixture.ts', 'export const x = (): string | null => localStorage.getItem("k");')).toContain('no-restricted-globals');
    // A local named like a browser global is not one.
    expect(await rulesAt('lib/fixture.ts', 'export const x = (window: { from: number }): number => window.from;')).toEqual([]);
    expect(await rulesAt('lib/client/fixture.ts', "import { useState } from 'react';\nexport const x = (): string => String(useState);")).toEqual([]);
  });
});

describe('import cycles', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(root, 'lib', 'lint-fixture-'));
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = (): number => b() + 1;\n");
    writeFileSync(join(dir, 'b.ts'), "import { a } from './a';\nexport const b = (): number => (Math.random() > 2 ? a() : 0);\n");
    writeFileSync(join(dir, 'c.ts'), "import { b } from './b';\nexport const c = (): number => b();\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('two modules importing each other are reported, one importing them is not', async () => {
    const results = await eslint.lintFiles([join(dir, '*.ts')]);
    const cycles = Object.fromEntries(results.map((r) => [relative(dir, r.filePath), r.messages.filter((m) => m.ruleId === 'import-x/no-cycle').length]));
    expect(cycles).toEqual({ 'a.ts': 1, 'b.ts': 1, 'c.ts': 0 });
  });
});

describe('React hooks', () => {
  it('a hook called conditionally in a component is reported', async () => {
    const code = "import { useState } from 'react';\nexport function C({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n";
    expect(await rulesAt('components/fixture.tsx', code)).toContain('react-hooks/rules-of-hooks');
  });
});

describe('server area boundaries', () => {
  it.each([
    ['server/sales/fixture.ts', "import { pricingBook } from '../orders/pricing';\nexport const x = pricingBook;"],
    ['server/resources/fixture.ts', "import { masterOffers } from '../master/masters';\nexport const x = masterOffers;"],
    ['server/imports/kinds/fixture.ts', "import { saveBatch } from '../../resources/records';\nexport const x = saveBatch;"],
  ])('%s: %s (another area\'s inner file) is refused', async (path, code) => {
    expect(await rulesAt(path, code)).toContain(RESTRICTED);
  });

  it.each([
    ['server/sales/fixture.ts', "import { pricingBook } from '../orders';\nimport { recomputeReceivables } from './ledger';\nexport const x = [pricingBook, recomputeReceivables];"],
    ['server/imports/kinds/fixture.ts', "import { saveBatch } from '../../resources';\nimport { resourceView } from '../../db/schema';\nimport { badRequest } from '../../http/api-error';\nexport const x = [saveBatch, resourceView, badRequest];"],
    ['server/fixture.ts', "import { salesPolicy } from './sales/sales-policy';\nexport const x = salesPolicy;"],
  ])('%s: a public module, infrastructure or the composition root passes', async (path, code) => {
    expect(await rulesAt(path, code)).toEqual([]);
  });
});
