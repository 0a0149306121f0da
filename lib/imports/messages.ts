/**
 * The import machinery's Japanese messages (server/imports refuses with them; the import screen shows some itself).
 */

/** The encodings a file may be read as: detected (`auto`) or chosen. */
export const IMPORT_ENCODINGS = ['auto', 'utf8', 'cp932'] as const;
export type ImportEncodingChoice = (typeof IMPORT_ENCODINGS)[number];
export type ImportEncoding = Exclude<ImportEncodingChoice, 'auto'>;

/** How an encoding is named to people. */
export const encodingLabel = (encoding: string): string => (encoding === 'cp932' ? 'Shift_JIS' : encoding === 'utf8' ? 'UTF-8' : '自動判定');

/** The states of an import (`import_run.imp_state`) as people read them. */
export const IMPORT_STATE_LABELS: Readonly<Record<string, string>> = {
  preview: '確認済み（未実行）', committed: '取込済み', failed: '失敗', expired: '期限切れ',
};

/** The most errors `import_preview` answers (all are in the errored-rows CSV). */
export const IMPORT_ERRORS_ANSWERED = 1000;

/** The largest file an import takes. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

export const IMPORT_MESSAGES = {
  missingKind: '取込の種類（kind）を指定してください。',
  unknownKind: (kind: string) => `取込の種類「${kind}」はありません。`,
  notYet: (kind: string) => `この取込（${kind}）はまだ使えません。`,
  badEncoding: '文字コードは auto・utf8・cp932 のどれかで指定してください。',
  badMapping: '列の対応（mapping）は {"項目": "見出し"} の形の JSON で指定してください。',
  mappingUnknownField: (field: string) => `列の対応に取込にない項目「${field}」があります。`,
  mappingUnknownHeader: (label: string, header: string) => `「${label}」に対応させた見出し「${header}」がファイルにありません。`,
  wrongEncoding: (encoding: string) =>
    `文字コードを確認してください（${encodingLabel(encoding)} として読めない文字があります）。文字コードを選び直すか、ファイルを保存し直してください。`,
  noKnownHeader: (encoding: string) =>
    `文字コードを確認してください（${encodingLabel(encoding)} として読んだ見出しに、取込できる列が1つもありません）。文字コードを選び直すか、見出しの行を確認してください。`,
  missingColumns: (labels: readonly string[]) => `必須の列「${labels.join('」「')}」がありません。見出しを確認するか、列の対応で指定してください。`,
  empty: 'ファイルにデータの行がありません。',
  badCsv: (row: number) => `CSV の形式が正しくありません（${row} 行目付近: 引用符「"」の閉じ忘れなど）。ファイルを確認してください。`,
  columnCount: (expected: number, actual: number) => `列の数が見出しと合いません（見出し ${expected} 列、この行 ${actual} 列）。`,
  missingImport: '取込を指定してください（import_id）。',
  notFound: 'この取込は見つかりません。',
  hasErrors: (count: number) => `エラーが ${count} 件あるため取込を実行できません。エラーを直したファイルでもう一度確認してください。`,
  committed: 'この取込は実行済みです。',
  failed: 'この取込は失敗しています。ファイルを選び直して、もう一度確認してください。',
  expired: '確認から時間が経ったため、この取込のファイルは削除されました。もう一度ファイルを選んで確認してください。',
  importedBefore: (when: string, who: string) =>
    `同じファイルが ${when} に ${who} さんによって取り込まれています。もう一度取り込むときは確認のうえ実行してください（confirm_duplicate=1）。`,
  changedSince: (count: number, first: string) =>
    `確認の後にデータが変わったため、取込を中止しました（エラー ${count} 件。最初のエラー: ${first}）。何も登録していません。もう一度確認してください。`,
  errorsColumn: 'エラー内容',
} as const;
