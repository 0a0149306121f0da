/**
 * The demo company's mail templates (seeded on first start): the everyday mails of a bottled-water
 * delivery business. Unprefixed field values of lib/resources/mail-template.
 */
export interface SeedMailTemplate {
  name: string;
  category: string;
  target: 'client' | 'order';
  subject: string;
  body: string;
  active: number;
  note: string;
}

const SIGNATURE = `──────────────────
{{自社名}}
担当: {{担当者名}}
お問い合わせ: 0120-000-000（平日 9:00〜18:00）
──────────────────`;

export const SEED_MAIL_TEMPLATES: readonly SeedMailTemplate[] = [
  {
    name: 'ご注文内容の確認',
    category: '1',
    target: 'order',
    subject: '【{{自社名}}】ご注文ありがとうございます（受注番号 {{受注番号}}）',
    body: `{{顧客名}} 様

このたびは{{自社名}}をご利用いただき、誠にありがとうございます。
以下の内容でご注文を承りました。

受注番号: {{受注番号}}
受注日: {{受注日}}
ご注文金額（税込）: {{合計金額}}
お届け先: 〒{{郵便番号}} {{住所}}

お届け日が近づきましたら、あらためてご案内いたします。
ご不明な点がございましたら、お気軽にお問い合わせください。

${SIGNATURE}`,
    active: 1,
    note: '受注登録後に送る確認メール。',
  },
  {
    name: '次回配送日のお知らせ',
    category: '2',
    target: 'client',
    subject: '【{{自社名}}】次回のお届け日のお知らせ（{{次回配送日}}）',
    body: `{{顧客名}} 様

いつも{{自社名}}のお水をご愛飲いただき、ありがとうございます。
次回の定期配送は {{次回配送日}} の予定です。

お届け先: 〒{{郵便番号}} {{住所}}

お届け日の変更・お休み（スキップ）をご希望の場合は、
お届け日の3日前までにご連絡ください。
空きボトルは次回のお届けの際に回収いたします。

${SIGNATURE}`,
    active: 1,
    note: '定期配送の前週に送る。',
  },
  {
    name: '請求書送付のご案内',
    category: '3',
    target: 'client',
    subject: '【{{自社名}}】ご請求書送付のご案内',
    body: `{{顧客名}} 様

平素より{{自社名}}をご利用いただき、誠にありがとうございます。
今月分のご請求書を郵送いたしました（{{本日の日付}}発送）。

お客様番号: {{顧客ID}}
ご登録住所: 〒{{郵便番号}} {{住所}}

お支払い期日までにお手続きをお願いいたします。
口座振替をご利用のお客様は、ご指定の口座から自動で引き落としいたします。
行き違いでお支払い済みの場合は、ご容赦ください。

${SIGNATURE}`,
    active: 1,
    note: '',
  },
  {
    name: '配送お休み（休止）の受付',
    category: '4',
    target: 'client',
    subject: '【{{自社名}}】配送休止のお手続きを承りました',
    body: `{{顧客名}} 様

いつもご利用いただき、ありがとうございます。
定期配送のお休み（休止）のお手続きを承りました。

休止中もウォーターサーバーはそのままお使いいただけます。
再開をご希望の際は、お電話またはメールでお知らせください。
休止期間が長くなる場合は、サーバーのお手入れについてご案内いたします。

ご登録電話番号: {{電話番号}}

${SIGNATURE}`,
    active: 1,
    note: '休止の連絡を受けたら当日中に送る。',
  },
  {
    name: 'ご解約手続き完了のお知らせ',
    category: '4',
    target: 'client',
    subject: '【{{自社名}}】ご解約のお手続き完了のお知らせ',
    body: `{{顧客名}} 様

これまで{{自社名}}をご利用いただき、誠にありがとうございました。
ご解約のお手続きが完了いたしました（{{本日の日付}}）。

ウォーターサーバーと空きボトルの回収日は、担当の{{担当者名}}から
あらためてご連絡いたします。
最終月のご請求は、翌月にご請求書でお知らせいたします。

またのご利用を心よりお待ちしております。

${SIGNATURE}`,
    active: 1,
    note: '',
  },
];
