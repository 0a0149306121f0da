/**
 * Keyword matching: every term must occur in `{prefix}search` (`LIKE '%term%'`, with `%`, `_`
 * and `\` taken literally). On SQLite, terms of three characters or more are looked up in the
 * FTS5 trigram table when the migration made one (a trigram phrase query is exactly a substring
 * match); shorter terms use LIKE. On PostgreSQL the pg_trgm GIN index serves the LIKE itself
 * (for terms of 3+ characters: pg_trgm cannot look up shorter ones).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { ResourceDef } from '../../lib/resources/types';
import { escapeLike } from '../../lib/text';
import type { AppDatabase } from '../db/connect';
import { resourceColumns } from './columns';

export interface KeywordMatcher {
  /** The condition that all terms match. */
  condition(def: ResourceDef, terms: readonly string[]): Expression<SqlBool>;
  /**
   * Whether the keyword index narrows the rows (a term of 3+ characters and an index for the table).
   * The list then starts from those rows instead of walking its sort index: the planners cannot
   * tell how many rows a substring matches, and walking the sort index for a selective keyword
   * reads thousands of rows.
   */
  narrows(def: ResourceDef, terms: readonly string[]): boolean;
}

const TRIGRAM = 3;
const likePattern = (term: string): string => `%${escapeLike(term)}%`;
const ftsPhrase = (term: string): string => `"${term.replace(/"/g, '""')}"`;

/**
 * The keyword matcher of a database: finds the FTS5 tables (SQLite) once at start.
 * @example const matcher = await keywordMatcher(database)
 */
export async function keywordMatcher(database: AppDatabase): Promise<KeywordMatcher> {
  if (database.dialect === 'postgres') {
    const { rows } = await sql<{ tablename: string }>`SELECT tablename FROM pg_indexes WHERE indexname LIKE '%\_search\_trgm\_idx'`.execute(database.db);
    const trigram = new Set(rows.map((r) => r.tablename));
    return {
      narrows: (def, terms) => trigram.has(def.table) && terms.some((t) => [...t].length >= TRIGRAM),
      condition(def, terms) {
        const column = sql.ref(resourceColumns(def).search);
        return sql<SqlBool>`(${sql.join(terms.map((t) => sql`${column} LIKE ${likePattern(t)}`), sql` AND `)})`;
      },
    };
  }
  const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_fts' ESCAPE '\\'`.execute(database.db);
  const fts = new Set(rows.map((r) => r.name));
  const indexedTerms = (def: ResourceDef, terms: readonly string[]) => (fts.has(`${def.table}_fts`) ? terms.filter((t) => [...t].length >= TRIGRAM) : []);
  return {
    narrows: (def, terms) => indexedTerms(def, terms).length > 0,
    condition(def, terms) {
      const { id, search } = resourceColumns(def);
      const column = sql.ref(search);
      const table = `${def.table}_fts`;
      const indexed = indexedTerms(def, terms);
      const parts = terms.filter((t) => !indexed.includes(t)).map((t) => sql`${column} LIKE ${likePattern(t)} ESCAPE '\\'`);
      if (indexed.length) {
        parts.unshift(sql`${sql.ref(id)} IN (SELECT rowid FROM ${sql.table(table)} WHERE ${sql.table(table)} MATCH ${indexed.map(ftsPhrase).join(' ')})`);
      }
      return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
    },
  };
}
