/**
 * The order screen: `/orders/new`, `/orders/detail/{odr}`, `/orders/copy/{odr}` (a new order with the same
 * customer, shipping and lines). It runs on the one form controller like every record form (`useRecordForm`:
 * load, save with the `modified` it was loaded with, conflict reload, delete) and edits the lines with the one
 * lines editor (ResourceDef.children). What is the order's own: the lines' live price (`usePricedLines`), the fee
 * and the totals per rate with it (lib/orders/form-pricing — what the save will store), 「前回の受注」, the status
 * buttons (`order_status`; changes still on screen are saved first) and the copy. */
import { useEffect, useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { call } from '@/lib/client/api/fetcher';
import { useRecordForm } from '@/lib/client/form/use-record-form';
import { formatMoney } from '@/lib/format';
import { newRecordValues } from '@/lib/client/list/new-record-values';
import { toForm, type FormRecord } from '@/lib/list/record-mapper';
import { refusalOf } from '@/lib/client/list/save-refusal';
import { useChildRows } from '@/lib/client/list/use-child-rows';
import { type Row } from '@/lib/client/list/use-list-controller';
import { detailPathOf, listPathOf } from '@/lib/list/resource-paths';
import { useRecordController } from '@/lib/client/list/use-record-controller';
import { taxClassText, usePricedLines } from '@/lib/client/slips/use-priced-lines';
import { deliveryFeesOf } from '@/lib/orders/delivery-fee';
import { orderPricing } from '@/lib/orders/form-pricing';
import { isOrderStatus, movedText, stockIsOut, statusText, TRANSITIONS, type StatusResult } from '@/lib/orders/status';
import { can } from '@/lib/permissions';
import { orderResource, SHIP_PARTS } from '@/lib/resources/order';
import { salesResource } from '@/lib/resources/sales';
import { resourceSchema } from '@/lib/resources/schema';
import { labelColumnOf, type ChildDef, type FieldDef } from '@/lib/resources/types';
import { fillPath, ROUTES } from '@/lib/routes';
import { formatRate } from '@/lib/tax';
import { FieldInput } from '@/components/resource/field-input';
import { FormProblem } from '@/components/resource/form-problem';
import { LinesEditor, type FixedRow } from '@/components/resource/lines-editor';
import { SlipTotals } from '@/components/resource/slip-totals';
import { AppLink, navigate, RecordNotFound, useAlert, useAreas, useConfirm, useLeaveGuard, useLoadingWhile, usePrompt, useUserId } from '@/components/resource/shell-bridge';
import { buttonClass, labelClass } from '@/components/resource/styles';
import type { ScreenProps } from '@/components/screens/screen-props';
import { useDeliveryFees } from '@/lib/client/data/masters';
import { useCall } from '@/lib/client/data/use-call';
import { cellText } from '../../../lib/resources/checks';

const def = orderResource;
const LINES = def.children as ChildDef;
const NEW_LINE = { quantity: '1' };
const COPY_ROUTE = ROUTES.find((r) => r.path.startsWith(`${def.basePath}/copy/`))?.path ?? `${def.basePath}/copy/:odr`;
/** What a copy keeps of the order it copies (besides the lines). */
const copied = (name: string) => ['cl_id', 'sk_id', 'pm_id', 'ht_id', 'delivery_fee'].includes(name) || name.startsWith('ship_');
const SWR_ONCE = { revalidateOnFocus: false } as const;
const SCHEMA = resourceSchema(def);
const NAMES = def.fields.map((f) => f.name);
const toOrderValues = (row: Row): FormRecord => toForm(def, row);

export default function OrderFormScreen({ match }: ScreenProps) {
  const odr = match.params.odr;
  const copying = match.route.path.startsWith(`${def.basePath}/copy/`);
  const id = copying ? undefined : odr;
  const rec = useRecordController(def, id);
  const source = useRecordController(def, copying ? odr : undefined);
  const areas = useAreas();
  const userId = useUserId();
  const writable = can(areas, def.area, 'write');
  const lines = useChildRows(LINES, copying ? source.children : rec.children, NEW_LINE);
  const record = rec.record;
  const [notice, setNotice] = useState('');
  /** The sales slip the last move made (処理済): the notice links it. */
  const [madeSlip, setMadeSlip] = useState<StatusResult['slip']>();
  const alert = useAlert();
  const confirm = useConfirm();
  const prompt = usePrompt();
  const status = cellText(record?.od_status ?? 'untreated');
  const linesLocked = !writable || stockIsOut(status) || status === 'cancelled';
  const f = useRecordForm({
    schema: SCHEMA,
    defaultValues: newRecordValues(def, { userId }),
    record,
    toValues: toOrderValues,
    names: NAMES,
    prefix: def.prefix,
    rows: lines,
    // Locked lines are not sent: the save keeps the stored ones.
    save: (values, rows) => rec.save(values, linesLocked && id ? undefined : rows),
    reload: rec.reload,
    remove: rec.remove,
    notify: alert,
    confirm,
    onSaved: async ({ row }) => {
      if (!id && row) await navigate(detailPathOf(def, String(row.od_id)), { replace: true, force: true });
    },
    onDeleted: () => navigate(listPathOf(def), { force: true }),
  });
  const { form, problem, busy } = f;
  const missing = id ? rec.notFound : copying && source.notFound;
  // Drawn once the order and its lines are read, so nothing typed is replaced by their arrival.
  const ready = id ? Boolean(record && rec.children) : !copying || Boolean(source.record && source.children);
  useLoadingWhile(busy || (!ready && !missing));

  const copiedFrom = source.record;
  useEffect(() => {
    if (copiedFrom) form.reset({ ...newRecordValues(def, { userId }), ...Object.fromEntries(Object.entries(toForm(def, copiedFrom)).filter(([name]) => copied(name))) });
  }, [copiedFrom, form, userId]);

  useEffect(() => {
    document.title = missing ? '受注が見つかりません' : id ? `受注詳細 ${cellText(record?.od_number ?? '')}` : copying ? '受注登録（複製）' : '受注登録';
  }, [id, copying, record, missing]);

  const clientId = form.watch('cl_id');
  const date = form.watch('date');
  const feeInput = form.watch('delivery_fee');
  const ship = useWatch({ control: form.control, name: SHIP_PARTS.map((part) => `ship_${part}`) });
  const priced = usePricedLines(LINES, lines.rows, clientId ?? '', date ?? '', '受注日');
  // 「前回の受注」: the customer's order before this one (an order being viewed), else their latest.
  const sameCustomer = Boolean(id && record && String(record.od_cl_id) === String(clientId));
  const previous = useCall('order_previous', clientId ? (sameCustomer ? { od_id: id } : { cl_id: clientId }) : null, SWR_ONCE).data?.[0];
  const feeRows = useDeliveryFees();
  const fees = useMemo(() => deliveryFeesOf(feeRows.data ?? []), [feeRows.data]);

  // The fee the save charges and the order's totals with it (lib/orders/form-pricing, as the server).
  const pricing = orderPricing({
    amounts: priced.amounts,
    linesCountable: priced.countable,
    feeText: feeInput,
    ship: Object.fromEntries(SHIP_PARTS.map((part, i) => [part, ship[i]])),
    client: priced.client,
    isNew: !id,
    fees,
    periods: priced.periods,
    date: priced.date,
    terms: priced.terms,
  });
  const { feeText, prefFee, shipPref, fee: feeValue } = pricing;
  const feeLines: FixedRow[] = pricing.feeLine ? [{
    key: 'fee',
    cells: { it_id: '—', name: pricing.feeLine.name, quantity: '1', price: String(pricing.feeLine.price), amount: formatMoney(pricing.feeLine.amount), tax_class: taxClassText('standard'), tax_rate: formatRate(pricing.standardRate) },
    note: '送料（税抜）から自動',
  }] : [];
  const { dirty } = f;
  useLeaveGuard(f.leaveGuard && !missing);

  const save = async () => {
    setNotice('');
    await f.submit();
  };

  /**
   * Moves the order to a status: 保留 asks its reason first; changes still on screen are saved first (a
   * refused save stops the move); a refused move marks every field it names.
   */
  const move = async (target: string) => {
    if (!id || !isOrderStatus(target)) return;
    f.setProblem(undefined);
    setNotice('');
    setMadeSlip(undefined);
    let reason = '';
    if (target === 'pending') {
      const given = await prompt('この受注を保留にする理由を入力してください。理由は受注の「保留理由」に残ります。', { title: '保留にする', label: '保留理由', confirmLabel: '保留にする', max: 200 });
      if (given === null) return;
      reason = given;
    }
    const savedFirst = dirty;
    if (dirty && !(await f.submit({ quiet: true }))) return;
    await f.whileBusy(async () => {
      try {
        const [result] = await call('order_status', { od_id: id, status: target, tracking_no: form.getValues('tracking_no') ?? '', reason });
        const latest = await rec.reload();
        if (latest) f.resetTo(latest);
        if (result) setNotice(result.message ?? `${movedText(result)}${savedFirst ? '（変更内容を保存してから状態を変えました）' : ''}`);
        setMadeSlip(result?.message ? undefined : result?.slip);
      } catch (error) {
        f.showRefusal(refusalOf(error));
      }
    });
  };

  const listPath = listPathOf(def);
  if (missing) return <RecordNotFound label={def.label} back={{ to: listPath, label: '受注検索へ戻る' }} />;
  const loadError = id ? rec.error : copying ? source.error : undefined;
  if (!ready) return loadError ? <div className="m-[16px]"><FormProblem problem={{ message: loadError }} onReload={() => void f.reloadLatest()} /></div> : null;

  const shown = (field: FieldDef) => field.tab === 'basic' && !['net_total', 'tax_total', 'uriage_total'].includes(field.name) && (id || (field.name !== 'number' && field.name !== 'hold_reason'));
  const transitions = id && writable && record ? TRANSITIONS[isOrderStatus(status) ? status : 'processed'] : [];
  return (
    <form className="flex flex-col gap-[16px] p-[16px]" noValidate onSubmit={(e) => {
      e.preventDefault();
      void save();
    }}>
      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <h1 className="text-[20px] font-bold text-ink">
          {id ? `受注詳細 ${cellText(record?.od_number ?? '')}` : copying ? '受注登録（複製）' : '受注登録'}
          {id && record && <span className="ml-[12px] rounded-[4px] bg-brand-soft px-[8px] py-[2px] text-[14px] text-brand" data-testid="order-status">{statusText(status)}</span>}
        </h1>
        <div className="flex flex-wrap gap-[8px]">
          {id && writable && <AppLink to={fillPath(COPY_ROUTE, { odr: id })} className={buttonClass('secondary')}>複製</AppLink>}
          <AppLink to={listPath} className={buttonClass('ghost')}>一覧へ</AppLink>
        </div>
      </div>

      {problem && <FormProblem problem={problem} onReload={() => void f.reloadLatest()} />}
      {notice && (
        <p role="status" className="rounded-[4px] border border-line bg-brand-soft px-[12px] py-[8px] text-[14px] text-ink">
          {notice}
          {madeSlip && <AppLink to={detailPathOf(salesResource, String(madeSlip.sl_id))} className="ml-[8px] text-brand underline">売上伝票 {madeSlip.sl_number} を開く</AppLink>}
        </p>
      )}

      {transitions.length > 0 && (
        <section aria-label="状態の変更" className="flex flex-wrap items-center gap-[8px]">
          <span className={labelClass}>状態の変更</span>
          {transitions.map((to) => (
            <button key={to} type="button" className={buttonClass(to === 'cancelled' ? 'danger' : 'secondary', 'sm')} onClick={() => void move(to)} disabled={busy}>
              「{statusText(to)}」にする
            </button>
          ))}
        </section>
      )}

      <div className="grid grid-cols-1 gap-[12px] md:grid-cols-2">
        {def.fields.filter(shown).map((field) => (
          <FieldInput key={field.name} field={field} form={form} disabled={!writable} locked={field.name === 'status' || (field.name === 'cl_id' && Boolean(id) && linesLocked)}
            refLabel={record ? cellText(record[labelColumnOf(def, field.name)] ?? '') : undefined} creating={!id} />
        ))}
      </div>
      {clientId && (
        <p className="text-[14px] text-ink-soft" data-testid="last-order">
          {previous ? (
            <>
              前回の受注: <AppLink to={detailPathOf(def, String(previous.od_id))} className="text-brand underline">{cellText(previous.od_number ?? '')}</AppLink>
              （{cellText(previous.od_date ?? '')}・{statusText(cellText(previous.od_status ?? ''))}・{formatMoney(Number(previous.od_uriage_total ?? 0))}）
            </>
          ) : '前回の受注はありません'}
        </p>
      )}

      <section aria-labelledby="order-lines" className="flex flex-col gap-[8px]">
        <h2 id="order-lines" className="text-[16px] font-bold text-ink">{LINES.label}</h2>
        <LinesEditor state={priced.withItemReset(lines)} disabled={busy} readOnly={linesLocked} derived={priced.derived} placeholder={priced.placeholder} fixedRows={feeLines} />
      </section>

      <SlipTotals totals={pricing.totals} countable={pricing.countable}
        invalidMessage={(priced.invalid || feeValue === undefined) ? '明細または送料に誤りがあるため、合計を計算できません。赤く表示された項目を直してください。' : undefined}
        notes={feeText === '' && Boolean(feeRows.error) && <p className="mt-[6px] text-[12px] text-muted">都道府県別送料を読み込めないため、送料は保存時に配送先の都道府県の送料になります。</p>}>
        <dt>うち送料（税抜・標準税率）</dt>
        <dd className="text-right tabular-nums" data-testid="delivery-fee">
          {feeValue === undefined ? '—' : formatMoney(feeValue)}
          {feeText === '' && (prefFee ? `（${prefFee.prefName}の送料）` : shipPref ? '' : '（配送先の都道府県なし）')}
        </dd>
      </SlipTotals>

      <details className="rounded-[6px] border border-line bg-white p-[12px]">
        <summary className="cursor-pointer text-[14px] font-medium">配送先（空欄のときは顧客の配送先）</summary>
        <div className="mt-[8px] grid grid-cols-1 gap-[12px] md:grid-cols-2">
          {def.fields.filter((f) => f.tab === 'shipping').map((field) => (
            <FieldInput key={field.name} field={field} form={form} disabled={!writable} creating={!id} />
          ))}
        </div>
      </details>

      {writable && (
        <div className="flex gap-[8px]">
          <button type="submit" className={buttonClass('primary')} disabled={busy}>保存</button>
          {id && !stockIsOut(status) && (
            <button type="button" className={buttonClass('danger')} disabled={busy} onClick={() => void f.remove()}>削除</button>
          )}
        </div>
      )}
    </form>
  );
}
