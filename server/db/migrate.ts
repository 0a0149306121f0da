/**
 * Runs the migrations (one set for both dialects) with Kysely's Migrator and a static provider.
 */
import { Migrator, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../config';
import * as initial from './migrations/0001-initial';
import * as searchIndex from './migrations/0002-search-index';
import * as listIdIndex from './migrations/0003-list-id-index';
import * as crmItemsUsers from './migrations/0004-crm-items-users';
import * as roles from './migrations/0005-roles';
import * as mailTemplates from './migrations/0006-mail-templates';
import * as mastersFeesLog from './migrations/0007-masters-fees-log';
import * as stockTax from './migrations/0008-stock-tax';
import * as hodSchedule from './migrations/0010-hod-schedule';
import * as hodGenerate from './migrations/0011-hod-generate';
import * as orders from './migrations/0009-orders';
import * as hodReport from './migrations/0012-hod-report';
import * as orderIndexes from './migrations/0013-order-indexes';
import * as orderListIndex from './migrations/0014-order-list-index';
import * as searchNameUnique from './migrations/0015-search-name-unique';
import * as searchKeys from './migrations/0018-search-keys';
import * as clientAgency from './migrations/0017-client-agency';
import * as jobs from './migrations/0022-jobs';
import * as payment from './migrations/0030-payment';
import * as serverHistory from './migrations/0031-server-history';
import * as jobStamps from './migrations/0023-job-stamps';
import * as moneyTerms from './migrations/0026-money-terms';
import * as moneyTermsData from './migrations/0027-money-terms-data';
import * as sales from './migrations/0032-sales';
import * as billingGroupIndex from './migrations/0038-billing-group-index';
import * as billing from './migrations/0040-billing';
import * as closingIndexes from './migrations/0041-closing-indexes';
import * as allocationPair from './migrations/0043-allocation-pair';
import * as companyInvoice from './migrations/0042-company-invoice';
import * as salesReport from './migrations/0045-sales-report';
import * as salesSources from './migrations/0035-sales-sources';
import * as writeAndSumIndexes from './migrations/0037-write-and-sum-indexes';
import * as writeIndexes from './migrations/0048-write-indexes';
import * as orderFeeLine from './migrations/0046-order-fee-line';
import * as salesWrites from './migrations/0047-sales-writes';
import * as imports from './migrations/0049-imports';
import * as jaccs from './migrations/0051-jaccs';
import * as b2Export from './migrations/0050-b2-export';
import * as accountingExport from './migrations/0052-accounting-export';
import * as orderImportKey from './migrations/0053-order-import-key';
import * as billingCarried from './migrations/0054-billing-carried';
import * as yayoiLate from './migrations/0055-yayoi-late';
import * as closingGuards from './migrations/0060-closing-guards';
import * as clientPaymentTerms from './migrations/0061-client-payment-terms';
import * as clientCodePrefix from './migrations/0075-client-code-prefix';
import * as clientSaleStaff from './migrations/0070-client-sale-staff';
import * as notice from './migrations/0080-notice';
import * as storedFiles from './migrations/0081-stored-files';
import * as jobHeartbeat from './migrations/0085-job-heartbeat';
import * as rowCounts from './migrations/0090-row-counts';
import * as sessionNotify from './migrations/0095-session-notify';
import * as rowCountStatements from './migrations/0100-row-count-statements';
import * as invoiceArchive from './migrations/0105-invoice-archive';
import type { Database } from './schema';
import { cellText } from '../../lib/resources/checks';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
  down?(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

const MIGRATIONS: Record<string, DialectMigration> = {
  '0001-initial': initial,
  '0002-search-index': searchIndex,
  '0003-list-id-index': listIdIndex,
  '0004-crm-items-users': crmItemsUsers,
  '0005-roles': roles,
  '0006-mail-templates': mailTemplates,
  '0007-masters-fees-log': mastersFeesLog,
  '0008-stock-tax': stockTax,
  '0010-hod-schedule': hodSchedule,
  '0011-hod-generate': hodGenerate,
  '0009-orders': orders,
  '0012-hod-report': hodReport,
  '0013-order-indexes': orderIndexes,
  '0014-order-list-index': orderListIndex,
  '0015-search-name-unique': searchNameUnique,
  '0018-search-keys': searchKeys,
  '0017-client-agency': clientAgency,
  '0022-jobs': jobs,
  '0030-payment': payment,
  '0031-server-history': serverHistory,
  '0023-job-stamps': jobStamps,
  '0026-money-terms': moneyTerms,
  '0027-money-terms-data': moneyTermsData,
  '0032-sales': sales,
  '0038-billing-group-index': billingGroupIndex,
  '0035-sales-sources': salesSources,
  '0037-write-and-sum-indexes': writeAndSumIndexes,
  '0040-billing': billing,
  '0041-closing-indexes': closingIndexes,
  '0043-allocation-pair': allocationPair,
  '0042-company-invoice': companyInvoice,
  '0045-sales-report': salesReport,
  '0048-write-indexes': writeIndexes,
  '0046-order-fee-line': orderFeeLine,
  '0047-sales-writes': salesWrites,
  '0049-imports': imports,
  '0050-b2-export': b2Export,
  '0052-accounting-export': accountingExport,
  '0053-order-import-key': orderImportKey,
  '0051-jaccs': jaccs,
  '0054-billing-carried': billingCarried,
  '0055-yayoi-late': yayoiLate,
  '0060-closing-guards': closingGuards,
  '0061-client-payment-terms': clientPaymentTerms,
  '0075-client-code-prefix': clientCodePrefix,
  '0070-client-sale-staff': clientSaleStaff,
  '0080-notice': notice,
  '0081-stored-files': storedFiles,
  '0085-job-heartbeat': jobHeartbeat,
  '0090-row-counts': rowCounts,
  '0095-session-notify': sessionNotify,
  '0100-row-count-statements': rowCountStatements,
  '0105-invoice-archive': invoiceArchive,
};


function provider(dialect: DialectName) {
  const migrations: Record<string, Migration> = {};
  for (const [name, m] of Object.entries(MIGRATIONS)) {
    migrations[name] = {
      up: (db) => m.up(db, dialect),
      down: m.down ? (db) => m.down!(db, dialect) : undefined,
    };
  }
  return { getMigrations: async () => migrations };
}

/**
 * Brings the schema to the latest migration; throws on failure.
 * @example await migrateToLatest(db, 'sqlite')
 */
export async function migrateToLatest(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  // Areas add their migrations independently (0005 may land after 0006): each one only adds its own
  // tables, so a database that ran a later number first may still run an earlier one.
  const migrator = new Migrator({ db, provider: provider(dialect), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error : new Error(cellText(error ?? 'unknown error'));
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause.message}`, { cause });
  }
}

/**
 * The names of every migration this code knows, sorted: a database is current when each one is recorded as run
 * (/healthz); a backup that ran another one is from a newer version (server/db/restore.ts).
 */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort();
