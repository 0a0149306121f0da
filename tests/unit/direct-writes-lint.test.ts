/**
 * Direct writes (eslint.config.mjs, scripts/lint/direct-writes.mjs): the rule's list of resource tables is the tables of
 * lib/resources RESOURCES, and a write naming one — by literal, aliased, through a bulk helper or as a declaration's
 * `.table` — is reported in server code outside the write helpers, while other tables, the helpers and tests pass.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../lib/resources';

const root = join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root, overrideConfig: [{ ...tseslint.configs.disableTypeChecked, files: ['**/*.{ts,tsx}'] }] });
const RULE = 'writes/no-direct-writes';

/** The rule ids reported for `code` linted as if it were the file `path` (relative to the repository). */
async function rulesAt(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

const write = (call: string): string =>
  `declare const db: { insertInto(t: string): unknown; updateTable(t: string): unknown; deleteFrom(t: string): unknown };\n` +
  `declare function insertMany(db: unknown, table: string, rows: unknown[]): unknown;\ndeclare const def: { table: string };\nexport const x = ${call};`;

// The first lint loads the plugins and the resolver: seconds on a busy machine.
beforeAll(() => rulesAt('server/fixture.ts', 'export {};'), 60_000);

describe('direct writes to resource tables', () => {
  it('the rule lists exactly the tables of the declared resources', async () => {
    const config = (await eslint.calculateConfigForFile(join(root, 'server/fixture.ts'))) as { rules: Record<string, [unknown, { tables: string[] }]> };
    const tables = Object.values(RESOURCES).map((def) => def.table);
    expect([...config.rules[RULE][1].tables].sort()).toEqual([...new Set(tables)].sort());
  });

  it('every resource table written directly in server code is reported', async () => {
    for (const def of Object.values(RESOURCES)) {
      expect(await rulesAt('server/orders/fixture.ts', write(`db.updateTable('${def.table}')`)), def.table).toContain(RULE);
    }
  }, 60_000);

  it.each([
    "db.insertInto('orders')", "db.deleteFrom('client')", "db.updateTable('orders as o')", 'db.updateTable(`payment`)',
    "insertMany(db, 'sales', [])", 'db.insertInto(def.table)',
  ])('%s is reported', async (call) => {
    expect(await rulesAt('server/fixture.ts', write(call))).toContain(RULE);
  });

  it.each([
    ['server/fixture.ts', "db.updateTable('job')"],
    ['server/fixture.ts', "insertMany(db, 'allocation', [])"],
    ['server/resources/system-write.ts', "db.updateTable('orders')"],
    ['server/resources/records.ts', 'db.updateTable(def.table)'],
    ['server/seed/fixture.ts', "db.insertInto('client')"],
    ['tests/api/fixture.ts', "db.updateTable('orders')"],
  ])('%s: %s passes', async (path, call) => {
    expect(await rulesAt(path, write(call))).not.toContain(RULE);
  });
});
