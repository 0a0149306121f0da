/**
 * What `npm run backup` and `npm run restore FILE` (scripts/backup.ts, scripts/restore.ts; server/db/backup.ts,
 * server/db/restore.ts) tell the operator: every refusal says what is wrong and that nothing was changed.
 */
const DIALECT_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
const UNCHANGED = '復元していません（データベースは変更していません）。';

export const BACKUP_MESSAGES = {
  noDatabase: (file: string): string => `バックアップするデータベースがありません（${file}）。DATA_DIR / DATABASE_URL を確認してください。`,
  cannotConnect: (detail: string): string => `データベースに接続できません（${detail}）。DATABASE_URL を確認してください。`,
  toolMissing: (tool: string): string =>
    `${tool} が見つかりません。PostgreSQL のクライアントを入れてください（Debian / Ubuntu: apt-get install postgresql-client）。`,
  toolFailed: (tool: string, detail: string): string => `${tool} が失敗しました: ${detail}`,
  backupExists: (file: string): string => `同じ名前のバックアップが既にあります（${file}）。少し待ってからもう一度実行してください。`,
  backupFailed: (detail: string): string => `バックアップに失敗しました: ${detail}（途中のファイルは消しました）。`,
  backedUp: (file: string, bytes: string, seconds: string): string => `バックアップしました: ${file}（${bytes}、${seconds} 秒）`,
  usage: '使い方: npm run restore バックアップファイル（hod-…json、または同じ名前の .db / .dump）',
  fileMissing: (file: string): string => `バックアップファイルが見つかりません: ${file}。${UNCHANGED}`,
  manifestMissing: (file: string): string =>
    `バックアップの目録（${file}）が見つかりません。バックアップは同じ名前の .json と一緒にコピーしてください。${UNCHANGED}`,
  manifestBroken: (file: string): string => `バックアップの目録（${file}）が壊れています。${UNCHANGED}`,
  wrongDialect: (backup: 'sqlite' | 'postgres', configured: 'sqlite' | 'postgres'): string =>
    `このバックアップは ${DIALECT_NAMES[backup]} のものですが、設定されているデータベースは ${DIALECT_NAMES[configured]} です（DATABASE_URL を確認してください）。${UNCHANGED}`,
  truncated: (file: string, expected: number, actual: number): string =>
    `バックアップファイル ${file} が壊れています（大きさが ${expected} バイトのはずが ${actual} バイトです。途中で切れています）。${UNCHANGED}`,
  checksumMismatch: (file: string): string =>
    `バックアップファイル ${file} が壊れています（チェックサム SHA-256 が一致しません）。${UNCHANGED}`,
  unreadable: (file: string, detail: string): string => `バックアップファイル ${file} を読み取れません（${detail}）。${UNCHANGED}`,
  newerMigrations: (names: string): string =>
    `このバックアップはこのプログラムより新しい版で作られています（このプログラムが知らない移行: ${names}）。プログラムを更新してから復元してください。${UNCHANGED}`,
  serverRunning: (file: string): string =>
    `サーバーが動いています（${file} を使用中）。サーバーを止めてから復元してください。${UNCHANGED}`,
  otherConnections: (count: number): string =>
    `データベースにほかの接続が ${count} 件あります（動いているサーバーなど）。すべてのサーバーを止めてから復元してください。${UNCHANGED}`,
  restoreFailed: (detail: string): string => `復元に失敗しました: ${detail}。${UNCHANGED}`,
  restored: (file: string, created: string): string =>
    `復元しました: ${file}（${created} のバックアップ）。サーバーを起動すると、このプログラムの新しい移行があれば適用されます。`,
  keptAside: (files: string): string => `復元前のデータは ${files} に残しました（不要なら削除してください）。`,
};
