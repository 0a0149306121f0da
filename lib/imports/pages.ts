/**
 * The import kinds as people choose them: each kind's name, the screen it is imported from and what it does. The kinds'
 * declarations (lib/imports/columns, `ImportKindInfo.label` / `route`), the route table's breadcrumbs (/system/import?kind=…
 * names its kind: ホーム › データ取込 › 受注取込) and the chooser of /system/import without a kind read them from here.
 * Nothing else is imported, so the shell's route table can read it.
 */
export const IMPORT_KIND_NAMES = ['client', 'order', 'waybill', 'waybill_sagawa', 'jaccs_result'] as const;
export type ImportKind = (typeof IMPORT_KIND_NAMES)[number];

export const isImportKind = (value: string): value is ImportKind => (IMPORT_KIND_NAMES as readonly string[]).includes(value);

export interface ImportPage {
  label: string;
  /** The screen the kind is imported from. */
  route: string;
  /** What importing it does, in a sentence (the chooser). */
  description: string;
}

export const IMPORT_PAGES: Readonly<Record<ImportKind, ImportPage>> = {
  client: { label: '顧客取込', route: '/client/import', description: '顧客をCSVで追加・更新します（顧客コードが同じ顧客は更新）。' },
  order: { label: '受注取込', route: '/system/import?kind=order', description: 'ECサイトなどの受注CSV（1行1明細）から受注と明細を登録します。' },
  waybill: { label: '送り状取込', route: '/system/import?kind=waybill', description: 'ヤマト B2クラウドの発行済データから送り状番号を受注に登録し、出荷済にします。' },
  waybill_sagawa: { label: '送り状取込（佐川 e飛伝）', route: '/system/import?kind=waybill_sagawa', description: '佐川 e飛伝IIIの発行済データから送り状番号を受注に登録し、出荷済にします。' },
  jaccs_result: { label: '口座振替結果（JACCS 全銀）', route: '/system/jaccs', description: 'JACCSの口座振替結果（全銀フォーマット）から入金を登録します。' },
};

/** The query parameter of /system/import naming the kind, and the kinds imported there by their names (breadcrumbs). */
export const IMPORT_KIND_PARAM = 'kind';
export const SYSTEM_IMPORT_TITLES: Readonly<Record<string, string>> = Object.fromEntries(
  IMPORT_KIND_NAMES.filter((kind) => IMPORT_PAGES[kind].route.startsWith(`/system/import?${IMPORT_KIND_PARAM}=`)).map((kind) => [kind, IMPORT_PAGES[kind].label]),
);
