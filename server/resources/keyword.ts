/**
 * Keyword matching: every term must occur in `{prefix}search` (`LIKE '%term%'`, with `%`, `_`
 * and `\` taken literally). On SQLite an FTS5 trigram table, when the migration made one,
 * narrows the rows first for terms of three characters or more; on PostgreSQL the pg_trgm GIN
 * index serves the LIKE itself.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { ResourceDef } from '../../lib/resources/types';
import { escapeLike } from '../../lib/text';
import type { AppDatabase } from '../db/connect';
import { resourceColumns } from './columns';

export interface KeywordMatcher {
  /** The condition that all terms match. */
  condition(def: ResourceDef, terms: readonly string[]): Expression<SqlBool>;
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
    return {
      condition(def, terms) {
        const column = sql.ref(resourceColumns(def).search);
        return sql<SqlBool>`(${sql.join(terms.map((t) => sql`${column} LIKE ${likePattern(t)}`), sql` AND `)})`;
      },
    };
  }
  const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_fts' ESCAPE '\\'`.execute(database.db);
  const fts = new Set(rows.map((r) => r.name));
  return {
    condition(def, terms) {
      const { id, search } = resourceColumns(def);
      const column = sql.ref(search);
      const parts = terms.map((t) => sql`${column} LIKE ${likePattern(t)} ESCAPE '\\'`);
      const long = terms.filter((t) => [...t].length >= TRIGRAM);
      const table = `${def.table}_fts`;
      if (long.length && fts.has(table)) {
        parts.unshift(sql`${sql.ref(id)} IN (SELECT rowid FROM ${sql.table(table)} WHERE ${sql.table(table)} MATCH ${long.map(ftsPhrase).join(' ')})`);
      }
      return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
    },
  };
}
