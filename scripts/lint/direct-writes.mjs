// @ts-check
/**
 * The lint rule `writes/no-direct-writes` (eslint.config.mjs "Direct writes"): a resource table is written only by the
 * write helpers — the form's write path (server/resources/records.ts, children.ts) and the application's own writes
 * (server/resources/system-write.ts) — which stamp every row from the one clock, set the job's id and write the audit
 * rows. Anywhere else `insertInto` / `updateTable` / `deleteFrom` (and the bulk helpers `insertMany`, `preparedInsert`,
 * `updateIntegersEach`, `updateTextEach`) naming a resource table is reported: by its string literal, by its type when
 * the linter has types (a `'sales' | 'payment'` parameter), or as a declaration's `.table`.
 */

/**
 * The tables of the declared resources (lib/resources RESOURCES, each `def.table`). Kept here by hand because the
 * linter does not load TypeScript; tests/unit/direct-writes-lint.test.ts fails when it and RESOURCES differ.
 */
export const RESOURCE_TABLES = [
  'agreement', 'audit_log', 'billing', 'bottle', 'client', 'company_setting', 'contact', 'daily', 'delivery_fee', 'hod_pause', 'invoice_archive',
  'hod_report', 'item', 'mail_template', 'master_option', 'notice', 'order_setting', 'orders', 'payment', 'report', 'role', 'sales',
  'server_history', 'tax_rate', 'user', 'warehouse', 'water_server', 'yayoi_setting',
];

/** Kysely's writes: the table is the first argument. */
const WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom']);
/** server/db/bulk-write.ts: the table is the second argument. */
const BULK_WRITES = new Set(['insertMany', 'preparedInsert', 'updateIntegersEach', 'updateTextEach']);

/** @param {string} text `'orders'` or `'orders as o'` */
const tableName = (text) => text.split(/\s+as\s+/)[0].trim();

/** @type {import('eslint').Rule.RuleModule} */
const noDirectWrites = {
  meta: {
    type: 'problem',
    docs: { description: 'Resource tables are written only through the write helpers (records.ts, system-write.ts).' },
    schema: [{ type: 'object', properties: { tables: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
    messages: {
      direct: 'A direct write to the resource table {{table}}: write it through server/resources/records.ts (saveInTransaction, saveBatch, a policy\'s writer) or server/resources/system-write.ts (systemInsert, systemUpdate), which stamp, job-stamp and audit every row.',
    },
  },
  create(context) {
    const tables = new Set(context.options[0]?.tables ?? RESOURCE_TABLES);
    const services = context.sourceCode.parserServices;
    const checker = services?.program?.getTypeChecker();
    /**
     * The resource tables an argument names, or ['a declaration\'s table'] for `def.table`.
     * @param {import('estree').Node} arg
     * @returns {string[]}
     */
    const named = (arg) => {
      if (arg.type === 'Literal' && typeof arg.value === 'string') return [tableName(arg.value)].filter((t) => tables.has(t));
      if (arg.type === 'TemplateLiteral' && arg.expressions.length === 0) return [tableName(arg.quasis[0].value.cooked ?? '')].filter((t) => tables.has(t));
      if (arg.type === 'MemberExpression' && arg.property.type === 'Identifier' && arg.property.name === 'table') return ['(a declaration\'s table)'];
      if (checker && services?.esTreeNodeToTSNodeMap) {
        const type = checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(arg));
        const parts = type.isUnion() ? type.types : [type];
        return parts.flatMap((t) => (t.isStringLiteral() ? [tableName(t.value)] : [])).filter((t) => tables.has(t));
      }
      return [];
    };
    return {
      CallExpression(node) {
        const { callee } = node;
        const arg = callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && WRITES.has(callee.property.name) ? node.arguments[0]
          : callee.type === 'Identifier' && BULK_WRITES.has(callee.name) ? node.arguments[1] : undefined;
        if (!arg || arg.type === 'SpreadElement') return;
        const found = named(arg);
        if (found.length > 0) context.report({ node: arg, messageId: 'direct', data: { table: found.join(', ') } });
      },
    };
  },
};

export const directWritesPlugin = { rules: { 'no-direct-writes': noDirectWrites } };
