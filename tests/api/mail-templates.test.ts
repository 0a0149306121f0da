/**
 * Mail templates: the generic calls on the declaration (list parameters, save, unique name,
 * conflicts, delete, roles), the placeholder check, the preview with real customer and order data,
 * and the test send through a local SMTP server (delivered, refused, not configured, unreachable,
 * wrong login) with its audit row.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as v from 'valibot';
import { formatDateJa, todayJst } from '../../lib/format';
import { PLACEHOLDERS, placeholderText, renderMail, templateProblems } from '../../lib/mail-template';
import { MESSAGES, type MailStatus } from '../../lib/protocol';
import type { MailBatchPreview } from '../../lib/billing/mail-batch';
import { mailTemplateResource } from '../../lib/resources/mail-template';
import { resourceSchema } from '../../lib/resources/schema';
import { loadConfig } from '../../server/config';
import { MAIL_MESSAGES, sendMail } from '../../server/mail/mailer';
import { SEED_MAIL_TEMPLATES } from '../../server/seed/data/mail-templates';
import { startLocalSmtp, type LocalSmtp } from '../support/local-smtp';
import { dialects, useHarness, type Harness, type ParamValue } from './harness';

type Row = Record<string, string | number | null>;
type ErrorRow = { error: string; fields?: Record<string, string> };

const COMPANY = 'テスト宅配水株式会社';
const FROM = 'noreply@aqua.example.jp';
const ONE_ADDRESS = '送信先メールアドレスには、アドレスを 1 件だけ入力してください（名前や区切り文字は使えません）。';
const LOGIN = { user: 'mailer', pass: 'smtp-secret-2026' };

const ALL_CLIENT_PLACEHOLDERS = PLACEHOLDERS.filter((p) => !p.only).map((p) => `${p.key}=${placeholderText(p.key)}`).join('\n');

/** Starts a local SMTP server for the enclosing suite. */
function useLocalSmtp(options: Parameters<typeof startLocalSmtp>[0] = {}): { readonly current: LocalSmtp } {
  let current: LocalSmtp | undefined;
  before(async () => {
    current = await startLocalSmtp(options);
  });
  after(async () => {
    await current?.close();
  });
  return {
    get current() {
      if (!current) throw new Error('the SMTP server is used before its suite started');
      return current;
    },
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

const save = (h: Harness, postData: Record<string, unknown>, id?: number, key?: string) =>
  h.post<Row>('mailtemplate_save', { id, postData: JSON.stringify(postData) }, key);

async function createTemplate(h: Harness, values: Record<string, unknown>): Promise<Row> {
  const res = await save(h, { category: '9', target: 'client', active: '1', note: '', ...values });
  assert.equal(res.status, 200, res.text);
  return res.body[0];
}

const sendAudits = (h: Harness, id: number) =>
  h.database.db.selectFrom('audit_log').selectAll().where('log_table', '=', 'mail_template').where('log_record_id', '=', id).where('log_call', '=', 'mailtemplate_send').execute();

describe('the seeded templates', () => {
  it('are five valid templates whose placeholders all render', () => {
    assert.equal(SEED_MAIL_TEMPLATES.length, 5);
    assert.equal(new Set(SEED_MAIL_TEMPLATES.map((t) => t.name)).size, 5);
    for (const template of SEED_MAIL_TEMPLATES) {
      const checked = v.safeParse(resourceSchema(mailTemplateResource), { ...template, active: String(template.active) });
      assert.ok(checked.success, `${template.name}: ${JSON.stringify(checked.issues?.map((i) => i.message))}`);
      const order = template.target === 'order' ? { od_id: 7, od_number: 'OD20260401-000007', od_date: '2026-04-01', od_uriage_total: 4320 } : undefined;
      const mail = renderMail(template, { client: { cl_id: 1, cl_co_name: '山田商店' }, order, senderName: '営業 花子', companyName: COMPANY, today: '2026-04-01' });
      assert.deepEqual(mail.unknown, [], template.name);
      assert.match(mail.body, /山田商店 様/, template.name);
    }
  });
});

describe('SMTP configuration', () => {
  it('reads SMTP_* and COMPANY_NAME with their defaults', () => {
    const off = loadConfig({});
    assert.equal(off.smtp.host, '');
    assert.equal(off.smtp.port, 587);
    assert.equal(off.smtp.secure, false);
    assert.equal(off.companyName, 'アクア宅配センター');
    const on = loadConfig({ SMTP_HOST: ' smtp.example.jp ', SMTP_PORT: '465', SMTP_SECURE: '1', SMTP_USER: 'info@example.jp', SMTP_PASS: 'p', COMPANY_NAME: COMPANY });
    assert.deepEqual(on.smtp, { host: 'smtp.example.jp', port: 465, secure: true, user: 'info@example.jp', pass: 'p', from: 'info@example.jp' });
    assert.equal(on.companyName, COMPANY);
    assert.equal(loadConfig({ SMTP_USER: 'login-name', MAIL_FROM: FROM }).smtp.from, FROM);
    assert.throws(() => loadConfig({ SMTP_PORT: 'abc' }), /SMTP_PORT/);
  });

  it('answers in Japanese when the SMTP server cannot be reached', async () => {
    const port = await closedPort();
    await assert.rejects(
      sendMail({ host: '127.0.0.1', port, secure: false, user: '', pass: '', from: FROM }, { to: 'a@example.jp', subject: '件名', text: '本文', fromName: COMPANY }),
      (error: Error & { status?: number }) => error.status === 502 && error.message === MAIL_MESSAGES.unreachable,
    );
  });

  describe('with a server that requires a login', () => {
    const smtp = useLocalSmtp({ login: LOGIN });
    it('refuses a wrong password with a Japanese message and delivers with the right one', async () => {
      const config = { host: '127.0.0.1', port: smtp.current.port, secure: false, user: LOGIN.user, pass: 'wrong', from: FROM };
      await assert.rejects(
        sendMail(config, { to: 'a@example.jp', subject: '件名', text: '本文', fromName: COMPANY }),
        (error: Error & { status?: number }) => error.status === 502 && error.message.startsWith(MAIL_MESSAGES.auth),
      );
      assert.equal(smtp.current.received.length, 0);
      await sendMail({ ...config, pass: LOGIN.pass }, { to: 'a@example.jp', subject: 'ログイン確認', text: '本文', fromName: COMPANY });
      assert.equal(smtp.current.received.length, 1);
      assert.equal(smtp.current.received[0].user, LOGIN.user);
      assert.equal(smtp.current.received[0].subject, 'ログイン確認');
    });
  });
});

for (const dialect of dialects()) {
  describe(dialect, () => {
    describe('with an SMTP server', () => {
      const smtp = useLocalSmtp({ refuse: /^refuse@/ });
      const h = useHarness(dialect, () => ({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.current.port), MAIL_FROM: FROM, COMPANY_NAME: COMPANY }));

      it('lists with keyword, sort, paging and filters, and counts', async () => {
        await createTemplate(h, { name: '一覧A 配送', category: '2', subject: '配送のお知らせ', body: '{{顧客名}} 様' });
        await createTemplate(h, { name: '一覧B 受注', category: '1', target: 'order', subject: '受注 {{受注番号}}', body: '{{合計金額}}' });
        await createTemplate(h, { name: '一覧C 停止', category: '9', active: '0', subject: '停止中', body: '停止中のテンプレート' });
        const list = (params: Record<string, unknown>) => h.post<Row>('mailtemplate_lst', { n: 10, p: 1, ...params });

        const byKeyword = await list({ kw: '一覧', col: 'ml_name', odr: 'desc' });
        assert.equal(byKeyword.status, 200, byKeyword.text);
        assert.deepEqual(byKeyword.body.map((r) => r.ml_name), ['一覧C 停止', '一覧B 受注', '一覧A 配送']);

        const bodyKeyword = await list({ kw: '停止中のテンプレート' });
        assert.deepEqual(bodyKeyword.body.map((r) => r.ml_name), ['一覧C 停止']);

        const orders = await list({ kw: '一覧', postData: { target: ['order'] } });
        assert.deepEqual(orders.body.map((r) => r.ml_name), ['一覧B 受注']);
        const inactive = await list({ kw: '一覧', postData: { active: ['0'] } });
        assert.deepEqual(inactive.body.map((r) => r.ml_name), ['一覧C 停止']);

        const page2 = await list({ kw: '一覧', n: 2, p: 2, col: 'ml_name', odr: 'asc' });
        assert.deepEqual(page2.body.map((r) => r.ml_name), ['一覧C 停止']);
        assert.deepEqual((await h.post('mailtemplate_cnt', { kw: '一覧' })).body, [3]);
        assert.deepEqual((await h.post('mailtemplate_pagination', { kw: '一覧', n: 2, p: 1 })).body, [{ total: 3, pages: 2, page: 1, n: 2 }]);

        const badSort = await list({ col: 'ml_body' });
        assert.equal(badSort.status, 400);
        assert.equal((badSort.body[0] as unknown as ErrorRow).error, MESSAGES.badSortColumn);
      });

      it('saves a template with its defaults and an audit row', async () => {
        const res = await save(h, { name: '保存テスト', category: '3', target: 'client', subject: '{{顧客名}} 様へのご案内', body: '{{顧客名}} 様\n\nいつもありがとうございます。' });
        assert.equal(res.status, 200, res.text);
        const row = res.body[0];
        assert.equal(row.ml_name, '保存テスト');
        assert.equal(row.ml_subject, '{{顧客名}} 様へのご案内');
        assert.equal(row.ml_body, '{{顧客名}} 様\n\nいつもありがとうございます。');
        assert.equal(row.ml_active, 1, 'a flag not sent takes its declared initial 1, as the form sends it');
        const detail = await h.post<Row>('mailtemplate_dtl', { id: row.ml_id });
        assert.equal(detail.body[0].ml_body, row.ml_body);
        const log = await h.database.db.selectFrom('audit_log').selectAll().where('log_table', '=', 'mail_template').where('log_record_id', '=', Number(row.ml_id)).execute();
        assert.equal(log.length, 1);
        assert.equal(log[0].log_call, 'mailtemplate_save');
      });

      it('refuses missing subject and body, and a name already used', async () => {
        const missing = await save(h, { name: '必須テスト', category: '9', target: 'client', subject: '', body: '' });
        assert.equal(missing.status, 400);
        const fields = (missing.body[0] as unknown as ErrorRow).fields!;
        assert.equal(fields.subject, '件名を入力してください。');
        assert.equal(fields.body, '本文を入力してください。');

        await createTemplate(h, { name: '重複テスト', subject: '件名', body: '本文' });
        const twice = await save(h, { name: '重複テスト', category: '9', target: 'client', subject: '別', body: '別' });
        assert.equal(twice.status, 400);
        assert.equal((twice.body[0] as unknown as ErrorRow).fields!.name, 'テンプレート名「重複テスト」は既に登録されています。');
      });

      it('refuses unknown placeholders, naming them under the field', async () => {
        const unknown = await save(h, { name: '未知の差し込み', category: '9', target: 'client', subject: '{{顧客名}} 様', body: '{{顧客様}} と ｛｛電話｝｝ と {{顧客名}}' });
        assert.equal(unknown.status, 400);
        const answer = unknown.body[0] as unknown as ErrorRow;
        assert.equal(answer.fields!.body, '本文に使用できない差し込み項目があります: {{顧客様}}、{{電話}}');
        assert.equal(answer.fields!.subject, undefined);

        const orderOnly = await save(h, { name: '顧客向けに受注項目', category: '9', target: 'client', subject: '受注 {{受注番号}}', body: '本文' });
        assert.equal(orderOnly.status, 400);
        assert.match((orderOnly.body[0] as unknown as ErrorRow).fields!.subject, /^件名に使用できない差し込み項目があります: \{\{受注番号\}\}（\{\{受注番号\}\} は対象が「受注」のテンプレートでのみ使えます）$/);

        // Changing only the target is checked against the stored subject and body.
        const order = await createTemplate(h, { name: '対象変更テスト', target: 'order', subject: '受注 {{受注番号}}', body: '{{合計金額}}' });
        const retarget = await save(h, { target: 'client', modified: order.modified }, Number(order.ml_id));
        assert.equal(retarget.status, 400);
        const fieldsAfter = (retarget.body[0] as unknown as ErrorRow).fields!;
        assert.match(fieldsAfter.subject, /\{\{受注番号\}\}/);
        assert.match(fieldsAfter.body, /\{\{合計金額\}\}/);
        assert.equal((await h.post<Row>('mailtemplate_dtl', { id: order.ml_id })).body[0].ml_target, 'order', 'nothing changed');
      });

      it('refuses a stale edit with 409 and deletes', async () => {
        const row = await createTemplate(h, { name: '競合テスト', subject: '件名', body: '本文' });
        const id = Number(row.ml_id);
        const first = await save(h, { subject: '最初の変更', modified: row.modified }, id);
        assert.equal(first.status, 200, first.text);
        const stale = await save(h, { subject: '古い画面からの変更', modified: row.modified }, id);
        assert.equal(stale.status, 409);
        assert.equal((stale.body[0] as unknown as ErrorRow).error, MESSAGES.conflict);

        const del = await h.post('mailtemplate_del', { id });
        assert.equal(del.status, 200, del.text);
        assert.equal((await h.post('mailtemplate_dtl', { id })).status, 404);
        assert.deepEqual((await h.post('mailtemplate_cnt', { kw: '競合テスト' })).body, [0]);
        const again = await createTemplate(h, { name: '競合テスト', subject: '件名', body: '本文' });
        assert.notEqual(again.ml_id, id, 'the name of a deleted template can be used again');
      });

      it('lets 配送 and 営業 read and preview but not save, delete or send', async () => {
        const row = await createTemplate(h, { name: '権限テスト', subject: '{{顧客名}} 様', body: '本文' });
        const id = Number(row.ml_id);
        const { delivery, sales } = h.fixtures.users;
        for (const user of [delivery, sales]) {
          const key = await h.keyOf(user.email, user.password);
          assert.equal((await h.post('mailtemplate_lst', { n: 10, p: 1 }, key)).status, 200, user.role);
          assert.equal((await h.post('mailtemplate_dtl', { id }, key)).status, 200, user.role);
          assert.equal((await h.post('mailtemplate_preview', { id, cl_id: h.fixtures.clients.abc }, key)).status, 200, user.role);
          for (const [call, params] of [
            ['mailtemplate_save', { postData: JSON.stringify({ name: `${user.role}の新規`, category: '9', target: 'client', subject: 's', body: 'b' }) }],
            ['mailtemplate_save', { id, postData: JSON.stringify({ subject: '変更', modified: row.modified }) }],
            ['mailtemplate_del', { id }],
            ['mailtemplate_send', { id, cl_id: h.fixtures.clients.abc, to: 'tester@example.jp' }],
          ] as const) {
            const res = await h.post(call, params, key);
            assert.equal(res.status, 403, `${user.role} ${call}`);
            assert.equal((res.body[0] as unknown as ErrorRow).error, MESSAGES.forbidden);
          }
        }
        assert.equal((await h.post<Row>('mailtemplate_dtl', { id })).body[0].ml_subject, '{{顧客名}} 様');
        assert.equal(smtp.current.received.length, 0);
        assert.equal((await sendAudits(h, id)).length, 0);
      });

      it('previews the saved template with a real customer', async () => {
        const row = await createTemplate(h, { name: 'プレビュー顧客', subject: '{{顧客名}} 様（{{自社名}}）', body: ALL_CLIENT_PLACEHOLDERS });
        const res = await h.post<Row & { unknown: string[] }>('mailtemplate_preview', { id: row.ml_id, cl_id: h.fixtures.clients.contract });
        assert.equal(res.status, 200, res.text);
        const preview = res.body[0];
        assert.equal(preview.subject, `契約テスト株式会社 様（${COMPANY}）`);
        const lines = Object.fromEntries(String(preview.body).split('\n').map((line) => line.split('=') as [string, string]));
        assert.deepEqual(lines, {
          顧客名: '契約テスト株式会社',
          会社名: '契約テスト株式会社',
          氏名: '',
          顧客ID: String(h.fixtures.clients.contract),
          郵便番号: '',
          住所: '福岡県福岡市',
          電話番号: '03-1234-5678',
          次回配送日: '2026年4月1日（水）',
          担当者名: '管理 太郎',
          自社名: COMPANY,
          本日の日付: formatDateJa(todayJst()),
        });
        assert.deepEqual(preview.unknown, []);
        assert.equal(preview.cl_id, h.fixtures.clients.contract);

        // The saved version is what is previewed: an edit shows after it is saved.
        await save(h, { subject: '{{氏名}} 様', modified: row.modified }, Number(row.ml_id));
        const person = await h.post<Row>('mailtemplate_preview', { id: row.ml_id, cl_id: h.fixtures.clients.abc });
        assert.equal(person.body[0].subject, '山本 一郎 様');
      });

      it('previews a template for an order with the order and its customer', async () => {
        const orderId = h.fixtures.orders[0];
        await h.database.db.updateTable('orders').set({ od_uriage_total: 12345 }).where('od_id', '=', orderId).execute();
        const row = await createTemplate(h, { name: 'プレビュー受注', target: 'order', subject: '受注番号 {{受注番号}} のご確認', body: '{{顧客名}} 様\n受注日: {{受注日}}\n合計: {{合計金額}}' });
        const number = String((await h.post<Row>('order_dtl', { id: orderId })).body[0].od_number);
        const res = await h.post<Row>('mailtemplate_preview', { id: row.ml_id, od_number: number });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body[0].subject, `受注番号 ${number} のご確認`);
        assert.equal(res.body[0].body, '株式会社ABC商事 様\n受注日: 2026年1月10日（土）\n合計: 12,345円');
        assert.equal(res.body[0].cl_id, h.fixtures.clients.abc);

        const noOrder = await h.post('mailtemplate_preview', { id: row.ml_id, cl_id: h.fixtures.clients.abc });
        assert.equal(noOrder.status, 400);
        assert.equal((noOrder.body[0] as unknown as ErrorRow).fields!.od_number, '受注番号を入力してください。');
        const missingOrder = await h.post('mailtemplate_preview', { id: row.ml_id, od_number: 'OD99999999-999999' });
        assert.equal(missingOrder.status, 404);
        assert.equal((missingOrder.body[0] as unknown as ErrorRow).error, '受注番号 OD99999999-999999 の受注が見つかりません。');
      });

      it('answers bad preview input in Japanese', async () => {
        const row = await createTemplate(h, { name: 'プレビュー入力', subject: '件名', body: '本文' });
        const cases: [Record<string, ParamValue>, number, string][] = [
          [{ id: row.ml_id }, 400, '顧客を選んでください。'],
          [{ id: row.ml_id, cl_id: 'abc' }, 400, '顧客は 1 以上の整数で指定してください。'],
          [{ id: row.ml_id, cl_id: 999999 }, 404, '顧客（ID 999999）が見つかりません。'],
          [{ cl_id: h.fixtures.clients.abc }, 400, 'メールテンプレートを選んでください。'],
          [{ id: 999999, cl_id: h.fixtures.clients.abc }, 404, 'メールテンプレート（ID 999999）が見つかりません。削除された可能性があります。'],
        ];
        for (const [params, status, message] of cases) {
          const res = await h.post('mailtemplate_preview', params);
          assert.equal(res.status, status, JSON.stringify(params));
          assert.equal((res.body[0] as unknown as ErrorRow).error, message);
        }
      });

      it('sends the filled mail to the local SMTP server and logs the send without the body', async () => {
        const row = await createTemplate(h, { name: '送信テスト', subject: '{{顧客名}} 様 次回のお届け', body: '{{顧客名}} 様\n次回配送日は{{次回配送日}}です。\n{{自社名}} {{担当者名}}' });
        const id = Number(row.ml_id);
        const before = smtp.current.received.length;
        const res = await h.post<Row>('mailtemplate_send', { id, cl_id: h.fixtures.clients.contract, to: ' ＴＥＳＴＥＲ＠ｅｘａｍｐｌｅ．ｊｐ ' });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body[0], { sent: true, to: 'TESTER@example.jp', subject: '契約テスト株式会社 様 次回のお届け' });

        assert.equal(smtp.current.received.length, before + 1);
        const mail = smtp.current.received.at(-1)!;
        assert.deepEqual(mail.envelopeTo, ['TESTER@example.jp']);
        assert.equal(mail.envelopeFrom, FROM);
        assert.equal(mail.headers.to, 'TESTER@example.jp');
        assert.match(mail.headers.from, new RegExp(`${COMPANY}.*<${FROM}>`));
        assert.match(mail.raw, /^Subject: =\?UTF-8\?/im, 'the Japanese subject is MIME-encoded');
        assert.equal(mail.subject, '契約テスト株式会社 様 次回のお届け');
        assert.equal(mail.text, `契約テスト株式会社 様\n次回配送日は2026年4月1日（水）です。\n${COMPANY} 管理 太郎`);

        const audits = await sendAudits(h, id);
        assert.equal(audits.length, 1);
        assert.equal(audits[0].log_user_id, h.fixtures.users.admin.id);
        const changes = JSON.parse(audits[0].log_changes) as Record<string, unknown[]>;
        assert.deepEqual(changes.to, [null, 'TESTER@example.jp']);
        assert.deepEqual(changes.subject, [null, '契約テスト株式会社 様 次回のお届け']);
        assert.deepEqual(changes.cl_id, [null, h.fixtures.clients.contract]);
        assert.doesNotMatch(audits[0].log_changes, /次回配送日は/, 'the body is not logged');
      });

      it('sends a template for an order', async () => {
        const orderId = h.fixtures.orders[1];
        const row = await createTemplate(h, { name: '受注送信テスト', target: 'order', subject: 'ご注文 {{受注番号}}', body: '{{受注日}} のご注文' });
        const res = await h.post<Row>('mailtemplate_send', { id: row.ml_id, od_id: orderId, to: 'order@example.jp' });
        assert.equal(res.status, 200, res.text);
        const number = String((await h.post<Row>('order_dtl', { id: orderId })).body[0].od_number);
        const mail = smtp.current.received.at(-1)!;
        assert.equal(mail.subject, `ご注文 ${number}`);
        assert.equal(mail.text, '2026年2月10日（火） のご注文');
        const changes = JSON.parse((await sendAudits(h, Number(row.ml_id)))[0].log_changes) as Record<string, unknown[]>;
        assert.deepEqual(changes.od_number, [null, number]);
      });

      it('refuses bad input and answers a refusing server in Japanese, sending and logging nothing', async () => {
        const row = await createTemplate(h, { name: '送信入力テスト', subject: '件名 {{顧客名}}', body: '本文' });
        const id = Number(row.ml_id);
        const before = smtp.current.received.length;
        const cases: [Record<string, ParamValue>, number, string, string?][] = [
          [{ id, cl_id: h.fixtures.clients.abc, to: '' }, 400, '送信先メールアドレスを入力してください。', 'to'],
          [{ id, cl_id: h.fixtures.clients.abc, to: 'not-an-address' }, 400, '送信先メールアドレスの形式が正しくありません（例: info@example.jp）。', 'to'],
          [{ id, cl_id: h.fixtures.clients.abc, to: 'a@example.jp,b' }, 400, ONE_ADDRESS, 'to'],
          [{ id, cl_id: h.fixtures.clients.abc, to: '<a@example.jp>' }, 400, ONE_ADDRESS, 'to'],
          [{ id, to: 'a@example.jp' }, 400, '顧客を選んでください。', 'cl_id'],
          [{ id: 999999, cl_id: h.fixtures.clients.abc, to: 'a@example.jp' }, 404, 'メールテンプレート（ID 999999）が見つかりません。削除された可能性があります。'],
          [{ id, cl_id: h.fixtures.clients.abc, to: 'refuse@example.jp' }, 502, `${MAIL_MESSAGES.refusedRecipient}（応答コード 550）`],
        ];
        for (const [params, status, message, field] of cases) {
          const res = await h.post('mailtemplate_send', params);
          assert.equal(res.status, status, JSON.stringify(params));
          const answer = res.body[0] as unknown as ErrorRow;
          assert.equal(answer.error, message);
          if (field) assert.equal(answer.fields?.[field], message);
        }
        assert.equal(smtp.current.received.length, before);
        assert.equal((await sendAudits(h, id)).length, 0);
      });
    });

    describe('without an SMTP server configured', () => {
      const h = useHarness(dialect);

      it('previews, but a send answers that mail is not set up and logs nothing', async () => {
        const row = await createTemplate(h, { name: 'SMTPなし', subject: '{{顧客名}} 様', body: '{{自社名}}' });
        const preview = await h.post<Row>('mailtemplate_preview', { id: row.ml_id, cl_id: h.fixtures.clients.yamada });
        assert.equal(preview.status, 200, preview.text);
        assert.equal(preview.body[0].subject, '山田商店 様');
        assert.equal(preview.body[0].body, 'アクア宅配センター');
        const res = await h.post('mailtemplate_send', { id: row.ml_id, cl_id: h.fixtures.clients.yamada, to: 'tester@example.jp' });
        // A setting missing is the user's to know (400), not an internal error logged with a stack (5xx).
        assert.equal(res.status, 400);
        assert.equal((res.body[0] as unknown as ErrorRow).error, MAIL_MESSAGES.notConfigured);
        assert.match(MAIL_MESSAGES.notConfigured, /^メールサーバー（SMTP）が設定されていません。/);
        assert.equal((await sendAudits(h, Number(row.ml_id))).length, 0);
      });

      it('says so up front for every mail action: the status the screens read, the invoice mail and the batch', async () => {
        assert.deepEqual((await h.post<MailStatus>('mail_status')).body[0], { ready: false, problem: MAIL_MESSAGES.notConfigured });
        const staff = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
        assert.equal((await h.post<MailStatus>('mail_status', {}, staff)).body[0].problem, MAIL_MESSAGES.notConfigured, 'any signed-in user');
        for (const [call, params] of [['billing_mail', { id: 1 }], ['billing_mail_batch', { sime_gp: '20', sime_ym: '202605' }]] as const) {
          const res = await h.post<ErrorRow>(call, params);
          assert.equal(res.status, 400, call);
          assert.equal(res.body[0].error, MAIL_MESSAGES.notConfigured, call);
        }
        const [preview] = (await h.post<MailBatchPreview>('billing_mail_batch_preview', { sime_gp: '20', sime_ym: '202605' })).body;
        assert.equal(preview.problem, MAIL_MESSAGES.notConfigured);
        assert.deepEqual((await h.post('job_lst', { kind: 'billing_mail_batch' })).body, []);
      });
    });
  });
}

describe('templateProblems', () => {
  it('accepts every placeholder of the target, with spaces and full-width braces', () => {
    assert.equal(templateProblems({ target: 'order', subject: '{{ 受注番号 }}', body: '｛｛顧客名｝｝ {{合計金額}}' }), undefined);
    assert.equal(templateProblems({ target: 'client', subject: '{{顧客名}}', body: '{{本日の日付}}' }), undefined);
  });
});
