/** The resources area's public module: what other server areas use of it (eslint.config.mjs "Areas"). */
export { childProblem, storedChildren } from './children';
export { resourceColumns, searchText, titleSql } from './columns';
export { csvEncodingParam, csvFile, exportCsv, fileStamp } from './csv-export';
export { csvRecords, encodeCsv, type JisReplacement, jisX0208Text, neutralise } from './csv-text';
export { keywordMatcher, type KeywordMatcher } from './keyword';
export { countMatching, parseListParams } from './list-query';
export { type ResourcePolicy, type SaveEvent, type WriteActor, type Writer } from './policy';
export { type BulkEntry, deleteInTransaction, findRecord, refusalOf, saveBatch, saveInTransaction, saveRecord, saveRecords, type WriteContext } from './records';
export { type AreaPolicies, policyOf, type ServerArea } from './registry';
export { masterUses, usedByRefusal } from './usage';
export { validateForm } from './validate';
