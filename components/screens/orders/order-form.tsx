/**
 * The order screen: `/orders/new`, `/orders/detail/{odr}`, `/orders/copy/{odr}` (a new order with
 * the same customer, shipping and lines). The order's fields are the declaration's (FieldInput);
 * the lines, the totals per rate (lib/orders/totals, the server's computation) and the status
 * buttons (`order_status`) are this screen's. Order and lines go in ONE `order_save`.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import useSWR from 'swr';
import { call, CallError } from '@/lib/api/fetcher';
import { formatDate, formatMoney } from '@/lib/format';
import { callFetcher, type Row } from '@/lib/list/use-list-controller';
import { fromForm, newRecordValues, toForm, type FormRecord } from '@/lib/list/record-mapper';
import { stockIsOut, statusText, TRANSITIONS } from '@/lib/orders/status';
import { lineAmount, orderTotals, roundingOf, unitPriceFor, type TaxedAmount } from '@/lib/orders/totals';
import { can } from '@/lib/permissions';
import { isOrderStatus } from '@/lib/orders/status';
import { orderResource } from '@/lib/resources/order';
import type { FieldDef } from '@/lib/resources/types';
import { formatRate, rateOn, taxPeriodOf, type TaxClass } from '@/lib/tax';
import { FieldInput } from '@/components/resource/field-input';
import { RefPicker } from '@/components/resource/ref-picker';
import { AppLink, navigate, useAlert, useAreas, useConfirm, useLoadingWhile, useUserId } from '@/components/resource/shell-bridge';
import { MESSAGES } from '@/lib/protocol';
import { buttonClass, inputClass, labelClass } from '@/components/resource/styles';
import type { ScreenProps } from '../registry';

const def = orderResource;
const ITEM_FIELD: FieldDef = { name: 'it_id', label: '商品', type: 'ref', ref: 'item', tab: 'basic' };

/** One line as edited: the item's facts for the price and tax shown. */
interface EditLine {
  key: number;
  it_id: string;
  name: string;
  quantity: string;
  /** '' = the customer's price of the item. */
  price: string;
  itemPrice: number;
  taxClass: TaxClass;
}

let lineKey = 0;
const emptyLine = (): EditLine => ({ key: ++lineKey, it_id: '', name: '', quantity: '1', price: '', itemPrice: 0, taxClass: 'standard' });
const lineOf = (row: Row): EditLine => ({
  key: ++lineKey, it_id: String(row.odd_it_id), name: String(row.odd_name ?? ''), quantity: String(row.odd_quantity),
  price: String(row.odd_price), itemPrice: Number(row.odd_price), taxClass: String(row.odd_tax_class) as TaxClass,
});

const SWR_ONCE = { revalidateOnFocus: false } as const;

export default function OrderFormScreen({ match }: ScreenProps) {
  const odr = match.params.odr;
  const copying = match.route.path.startsWith('/orders/copy');
  const id = copying ? undefined : odr;
  const areas = useAreas();
  const userId = useUserId();
  const writable = can(areas, def.area, 'write');
  const form = useForm<FormRecord>({ defaultValues: newRecordValues(def, { userId }) });
  const [lines, setLines] = useState<EditLine[]>(() => (odr ? [] : [emptyLine()]));
  const [record, setRecord] = useState<Row>();
  const [problem, setProblem] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const confirm = useConfirm();
  useLoadingWhile(busy);

  const load = useCallback(async () => {
    if (!odr) return;
    const [order] = await call<Row>('order_dtl', { id: odr });
    const stored = await call<Row>('order_detail_lst', { od_id: odr });
    if (!order) return;
    if (copying) {
      const values = toForm(def, order);
      const kept = Object.fromEntries(Object.entries(values).filter(([name]) => name === 'cl_id' || name === 'sk_id' || name === 'pm_id' || name === 'ht_id' || name.startsWith('ship_') || name === 'delivery_fee'));
      form.reset({ ...newRecordValues(def, { userId }), ...kept });
    } else {
      setRecord(order);
      form.reset(toForm(def, order));
    }
    setLines(stored.length ? stored.map(lineOf) : [emptyLine()]);
  }, [odr, copying, form, userId]);

  useEffect(() => {
    setProblem('');
    load().catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
  }, [load]);

  useEffect(() => {
    document.title = id ? `受注詳細 ${String(record?.od_number ?? '')}` : copying ? '受注登録（複製）' : '受注登録';
  }, [id, copying, record]);

  const clientId = form.watch('cl_id');
  const date = form.watch('date');
  const fee = form.watch('delivery_fee');
  const client = useSWR(clientId ? (['client_dtl', { id: clientId }] as const) : null, callFetcher<Row>, SWR_ONCE).data?.[0];
  const lastOrder = useSWR(clientId ? (['order_lst', { cl_id: clientId, n: 1, p: 1, col: 'od_id', odr: 'desc', kw: '', postData: {} }] as const) : null, callFetcher<Row>, SWR_ONCE).data?.[0];
  const taxRows = useSWR(['tax_lst', { n: 1000, p: 1, col: 'tx_valid_from', odr: 'asc', kw: '', postData: {} }] as const, callFetcher<Row>, SWR_ONCE).data;
  const periods = useMemo(() => (taxRows ?? []).flatMap((row) => taxPeriodOf(row) ?? []), [taxRows]);

  const status = String(record?.od_status ?? 'untreated');
  const linesLocked = !writable || stockIsOut(status) || status === 'cancelled';
  const customer = { tankaType: client?.cl_tanka_type, kakeRitu: client?.cl_kake_ritu, kinKiri: roundingOf(client?.cl_kin_kiri) };
  const priceOf = (line: EditLine): number => (line.price.trim() === '' ? unitPriceFor(line.itemPrice, customer) : Number(line.price));
  const rateOf = (line: EditLine): number | undefined => rateOn(periods, line.taxClass, date || formatDate(new Date()));
  const filled = lines.filter((l) => l.it_id !== '');
  const amounts: TaxedAmount[] = filled.map((l) => ({ amount: lineAmount(Number(l.quantity) || 0, priceOf(l)), taxClass: l.taxClass, taxRate: rateOf(l) ?? 0 }));
  const feeValue = fee === '' || fee === undefined ? Number(record?.od_delivery_fee ?? 0) : Number(fee);
  if (feeValue) amounts.push({ amount: feeValue, taxClass: 'standard', taxRate: rateOn(periods, 'standard', date || '') ?? 0 });
  const totals = orderTotals(amounts, roundingOf(client?.cl_zei_kiri));

  const setLine = (key: number, patch: Partial<EditLine>) => setLines((now) => now.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const pickItem = async (key: number, itemId: string) => {
    setLine(key, { it_id: itemId });
    if (!itemId) return;
    const [item] = await call<Row>('item_dtl', { id: itemId });
    if (item) setLine(key, { name: String(item.it_name), itemPrice: Number(item.it_price ?? 0), taxClass: String(item.it_tax_class) as TaxClass, price: '' });
  };

  const save = form.handleSubmit(async (values) => {
    setProblem('');
    setNotice('');
    setBusy(true);
    try {
      const postData = {
        ...fromForm(def, values), modified: String(record?.modified ?? ''),
        lines: filled.map((l) => ({ it_id: Number(l.it_id), quantity: l.quantity, price: l.price, name: l.name })),
      };
      if (linesLocked && id) delete (postData as { lines?: unknown }).lines;
      const [saved] = await call<Row>('order_save', id ? { id, postData } : { postData });
      alert(MESSAGES.saved);
      if (!id && saved) {
        await navigate(`/orders/detail/${String(saved.od_id)}`, { replace: true, force: true });
        return;
      }
      await load();
    } catch (error) {
      if (error instanceof CallError) {
        setProblem(error.message);
        for (const [name, message] of Object.entries(error.fields ?? {})) if (def.fields.some((f) => f.name === name)) form.setError(name, { message });
      } else throw error;
    } finally {
      setBusy(false);
    }
  });

  const move = async (target: string) => {
    if (!id || !isOrderStatus(target)) return;
    setProblem('');
    setNotice('');
    setBusy(true);
    try {
      const [result] = await call<{ status: string; ok: boolean; message?: string }>('order_status', { od_id: id, status: target, tracking_no: form.getValues('tracking_no') ?? '' });
      await load();
      if (result) setNotice(result.message ?? `「${statusText(result.status)}」にしました。`);
    } catch (error) {
      if (error instanceof CallError) setProblem(error.message);
      else throw error;
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!id || !(await confirm(MESSAGES.confirmDelete))) return;
    setProblem('');
    setBusy(true);
    try {
      await call('order_del', { id });
      alert(MESSAGES.deleted);
      await navigate('/orders/list/search', { force: true });
    } catch (error) {
      if (error instanceof CallError) setProblem(error.message);
      else throw error;
    } finally {
      setBusy(false);
    }
  };

  const shown = (field: FieldDef) => field.tab === 'basic' && !['net_total', 'tax_total', 'uriage_total'].includes(field.name) && (id || (field.name !== 'number' && field.name !== 'hold_reason'));
  return (
    <form className="flex flex-col gap-[16px] p-[16px]" noValidate onSubmit={(e) => void save(e)}>
      <div className="flex flex-wrap items-center justify-between gap-[12px]">
        <h1 className="text-[20px] font-bold text-ink">
          {id ? `受注詳細 ${String(record?.od_number ?? '')}` : copying ? '受注登録（複製）' : '受注登録'}
          {id && record && <span className="ml-[12px] rounded-[4px] bg-brand-soft px-[8px] py-[2px] text-[14px] text-brand" data-testid="order-status">{statusText(status)}</span>}
        </h1>
        <div className="flex flex-wrap gap-[8px]">
          {id && writable && <AppLink to={`/orders/copy/${id}`} className={buttonClass('secondary')}>複製</AppLink>}
          <AppLink to="/orders/list/search" className={buttonClass('ghost')}>一覧へ</AppLink>
        </div>
      </div>

      {problem && <p role="alert" className="rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[14px] text-danger">{problem}</p>}
      {notice && <p role="status" className="rounded-[4px] border border-line bg-brand-soft px-[12px] py-[8px] text-[14px] text-ink">{notice}</p>}

      {id && writable && record && TRANSITIONS[isOrderStatus(status) ? status : 'processed'].length > 0 && (
        <section aria-label="状態の変更" className="flex flex-wrap items-center gap-[8px]">
          <span className={labelClass}>状態の変更</span>
          {TRANSITIONS[isOrderStatus(status) ? status : 'processed'].map((to) => (
            <button key={to} type="button" className={buttonClass(to === 'cancelled' ? 'danger' : 'secondary', 'sm')} onClick={() => void move(to)} disabled={busy}>
              「{statusText(to)}」にする
            </button>
          ))}
        </section>
      )}

      <div className="grid grid-cols-1 gap-[12px] md:grid-cols-2">
        {def.fields.filter(shown).map((field) => (
          <FieldInput key={field.name} field={field} form={form} disabled={!writable} locked={field.name === 'status' || (field.name === 'cl_id' && Boolean(id) && linesLocked)}
            refLabel={field.name === 'cl_id' ? String(record?.od_cl_id_label ?? '') : undefined} creating={!id} />
        ))}
      </div>
      {clientId && (
        <p className="text-[14px] text-ink-soft" data-testid="last-order">
          {lastOrder ? (
            <>前回の受注: <AppLink to={`/orders/detail/${String(lastOrder.od_id)}`} className="text-brand underline">{String(lastOrder.od_number || lastOrder.od_id)}</AppLink>（{String(lastOrder.od_date)}・{formatMoney(Number(lastOrder.od_uriage_total ?? 0))}）</>
          ) : '前回の受注はありません'}
        </p>
      )}

      <section aria-label="明細" className="flex flex-col gap-[8px]">
        <h2 className="text-[16px] font-bold text-ink">明細</h2>
        <div className="overflow-x-auto rounded-[6px] border border-line bg-white">
          <table className="w-full border-collapse text-[14px]">
            <thead className="bg-subtle text-ink-soft">
              <tr className="h-[36px]">
                <th scope="col" className="px-[8px] text-left">商品</th>
                <th scope="col" className="px-[8px] text-right">数量</th>
                <th scope="col" className="px-[8px] text-right">単価（税抜）</th>
                <th scope="col" className="px-[8px] text-right">税率</th>
                <th scope="col" className="px-[8px] text-right">金額</th>
                <th scope="col" className="px-[8px]"><span className="visually-hidden">操作</span></th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line, index) => (
                <tr key={line.key} className="border-t border-line">
                  <td className="min-w-[240px] px-[8px] py-[4px]">
                    <label htmlFor={`line-${line.key}-item`} className="visually-hidden">{index + 1}行目の商品</label>
                    <RefPicker field={{ ...ITEM_FIELD, label: `${index + 1}行目の商品` }} inputId={`line-${line.key}-item`} value={line.it_id} label={line.name} onChange={(value) => void pickItem(line.key, value)} disabled={linesLocked} />
                  </td>
                  <td className="px-[8px]">
                    <input aria-label={`${index + 1}行目の数量`} inputMode="numeric" className={`${inputClass} w-[80px] text-right`} value={line.quantity} disabled={linesLocked} onChange={(e) => setLine(line.key, { quantity: e.target.value })} />
                  </td>
                  <td className="px-[8px]">
                    <input aria-label={`${index + 1}行目の単価`} inputMode="numeric" className={`${inputClass} w-[110px] text-right`} value={line.price} placeholder={line.it_id ? String(priceOf(line)) : ''} disabled={linesLocked} onChange={(e) => setLine(line.key, { price: e.target.value })} />
                  </td>
                  <td className="px-[8px] text-right tabular-nums">{line.it_id ? (line.taxClass === 'exempt' ? '非課税' : formatRate(rateOf(line))) : ''}</td>
                  <td className="px-[8px] text-right tabular-nums">{line.it_id ? formatMoney(lineAmount(Number(line.quantity) || 0, priceOf(line))) : ''}</td>
                  <td className="px-[8px]">
                    {!linesLocked && (
                      <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setLines((now) => now.filter((l) => l.key !== line.key))}>
                        削除<span className="visually-hidden">（{index + 1}行目）</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!linesLocked && (
          <div>
            <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => setLines((now) => [...now, emptyLine()])}>＋ 明細を追加</button>
          </div>
        )}
      </section>

      <section aria-label="合計" className="ml-auto w-full max-w-[420px] rounded-[6px] border border-line bg-white p-[12px] text-[14px]">
        <dl className="grid grid-cols-[1fr_auto] gap-x-[16px] gap-y-[4px]">
          {totals.rates.map((r) => (
            <div key={r.key} className="contents" data-testid={`rate-${r.key}`}>
              <dt>{r.label}</dt>
              <dd className="text-right tabular-nums">{formatMoney(r.net)}（税 {formatMoney(r.tax)}）</dd>
            </div>
          ))}
          <dt>小計（税抜）</dt>
          <dd className="text-right tabular-nums" data-testid="net-total">{formatMoney(totals.net)}</dd>
          <dt>消費税</dt>
          <dd className="text-right tabular-nums" data-testid="tax-total">{formatMoney(totals.tax)}</dd>
          <dt className="font-bold">合計（税込）</dt>
          <dd className="text-right font-bold tabular-nums" data-testid="grand-total">{formatMoney(totals.total)}</dd>
        </dl>
        {(fee === '' || fee === undefined) && !record && <p className="mt-[6px] text-[12px] text-muted">送料が空欄のときは、保存時に配送先の都道府県の送料が加わります。</p>}
      </section>

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
            <button type="button" className={buttonClass('danger')} disabled={busy} onClick={() => void remove()}>削除</button>
          )}
        </div>
      )}
    </form>
  );
}
