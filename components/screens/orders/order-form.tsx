/**
 * The order screen: `/orders/new`, `/orders/detail/{odr}`, `/orders/copy/{odr}` (a new order with
 * the same customer, shipping and lines). The order's fields are the declaration's (FieldInput,
 * validated by the resource's schema like the generic form); the lines, the totals per rate and the
 * status buttons (`order_status`) are this screen's. The lines are read by the save's own rule
 * (lib/orders/lines) and priced by its computation (lib/orders/totals, lib/orders/delivery-fee), so
 * what the screen shows before saving is what the save stores. Order and lines go in ONE `order_save`;
 * a status move saves changes still on screen first. A missing order shows the not-found screen.
 */
import { valibotResolver } from '@hookform/resolvers/valibot';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import useSWR from 'swr';
import { call, CallError } from '@/lib/client/api/fetcher';
import { formatDate, formatMoney } from '@/lib/format';
import { callFetcher, type Row } from '@/lib/client/list/use-list-controller';
import { fromForm, toForm, type FormRecord } from '@/lib/list/record-mapper';
import { newRecordValues } from '@/lib/client/list/new-record-values';
import { deliveryFeesOf, feeIn, shippingOf } from '@/lib/orders/delivery-fee';
import { checkLine, LINE_PRICE, LINE_QUANTITY } from '@/lib/orders/lines';
import { isOrderStatus, stockIsOut, statusText, TRANSITIONS, type StatusResult } from '@/lib/orders/status';
import { lineAmount, orderTotalsWithFee, roundingOf, unitPriceFor, type TaxedAmount } from '@/lib/orders/totals';
import { can } from '@/lib/permissions';
import { integerIn } from '@/lib/resources/checks';
import { orderResource, SHIP_PARTS } from '@/lib/resources/order';
import { halfWidthOf, resourceSchema } from '@/lib/resources/schema';
import { labelColumnOf, type FieldDef } from '@/lib/resources/types';
import { formatRate, rateOn, taxPeriodOf, type TaxClass } from '@/lib/tax';
import { FieldInput } from '@/components/resource/field-input';
import { RefPicker } from '@/components/resource/ref-picker';
import { AppLink, navigate, RecordNotFound, useAlert, useAreas, useConfirm, useLeaveGuard, useLoadingWhile, usePrompt, useUserId } from '@/components/resource/shell-bridge';
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

/** The messages of one line's inputs (the form's own check, or the server's refusal). */
type LineProblems = Partial<Record<'it_id' | 'quantity' | 'price', string>>;

/** What a save would write of the lines: a move of the status saves first when it changed. */
const linesKey = (lines: readonly EditLine[]): string =>
  JSON.stringify(lines.filter((l) => l.it_id !== '').map((l) => [l.it_id, l.name, l.quantity, l.price]));

export default function OrderFormScreen({ match }: ScreenProps) {
  const odr = match.params.odr;
  const copying = match.route.path.startsWith('/orders/copy');
  const id = copying ? undefined : odr;
  const areas = useAreas();
  const userId = useUserId();
  const writable = can(areas, def.area, 'write');
  const resolver = useMemo(() => valibotResolver(resourceSchema(def)) as unknown as Resolver<FormRecord>, []);
  const form = useForm<FormRecord>({ resolver, defaultValues: newRecordValues(def, { userId }), mode: 'onSubmit', reValidateMode: 'onChange', shouldFocusError: false });
  const [lines, setLines] = useState<EditLine[]>(() => (odr ? [] : [emptyLine()]));
  /** The lines as loaded: a move of the status saves first when they differ. */
  const [loadedLines, setLoadedLines] = useState(() => (odr ? '' : linesKey([])));
  /** The server's refusals of lines, by line key (cleared when the line changes). */
  const [lineRefusals, setLineRefusals] = useState<Record<number, LineProblems>>({});
  const [record, setRecord] = useState<Row>();
  const [ready, setReady] = useState(!odr);
  const [missing, setMissing] = useState(false);
  const [problem, setProblem] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const confirm = useConfirm();
  const prompt = usePrompt();
  useLoadingWhile(busy || !ready);

  const load = useCallback(async () => {
    if (!odr) return;
    let order: Row | undefined;
    let stored: Row[] = [];
    try {
      [order] = await call<Row>('order_dtl', { id: odr });
      if (order) stored = await call<Row>('order_detail_lst', { od_id: odr });
    } catch (error) {
      if (!(error instanceof CallError) || error.status !== 404) throw error;
    }
    if (!order) {
      setMissing(true);
      return;
    }
    if (copying) {
      const values = toForm(def, order);
      const kept = Object.fromEntries(Object.entries(values).filter(([name]) => name === 'cl_id' || name === 'sk_id' || name === 'pm_id' || name === 'ht_id' || name.startsWith('ship_') || name === 'delivery_fee'));
      form.reset({ ...newRecordValues(def, { userId }), ...kept });
    } else {
      setRecord(order);
      form.reset(toForm(def, order));
    }
    const edited = stored.length ? stored.map(lineOf) : [emptyLine()];
    setLines(edited);
    // A copy's lines are where it starts, as a new order's empty line is: leaving an untouched copy asks nothing.
    setLoadedLines(linesKey(edited));
    setLineRefusals({});
    setReady(true);
  }, [odr, copying, form, userId]);

  useEffect(() => {
    setProblem('');
    load().catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
  }, [load]);

  useEffect(() => {
    document.title = missing ? '受注が見つかりません' : id ? `受注詳細 ${String(record?.od_number ?? '')}` : copying ? '受注登録（複製）' : '受注登録';
  }, [id, copying, record, missing]);

  const clientId = form.watch('cl_id');
  const date = form.watch('date');
  const fee = form.watch('delivery_fee');
  const ship = useWatch({ control: form.control, name: SHIP_PARTS.map((part) => `ship_${part}`) });
  const client = useSWR(clientId ? (['client_dtl', { id: clientId }] as const) : null, callFetcher<Row>, SWR_ONCE).data?.[0];
  // 「前回の受注」: the customer's order before this one (an order being viewed), else their latest.
  const sameCustomer = Boolean(id && record && String(record.od_cl_id) === String(clientId));
  const previous = useSWR(clientId ? (['order_previous', sameCustomer ? { od_id: id } : { cl_id: clientId }] as const) : null, callFetcher<Row>, SWR_ONCE).data?.[0];
  const taxRows = useSWR(['tax_lst', { n: 1000, p: 1, col: 'tx_valid_from', odr: 'asc', kw: '', postData: {} }] as const, callFetcher<Row>, SWR_ONCE).data;
  const periods = useMemo(() => (taxRows ?? []).flatMap((row) => taxPeriodOf(row) ?? []), [taxRows]);
  const feeRows = useSWR(['deliveryfee_lst', { n: 100, p: 1, col: 'df_pref_code', odr: 'asc', kw: '', postData: {} }] as const, callFetcher<Row>, SWR_ONCE);
  const fees = useMemo(() => deliveryFeesOf(feeRows.data ?? []), [feeRows.data]);

  const status = String(record?.od_status ?? 'untreated');
  const linesLocked = !writable || stockIsOut(status) || status === 'cancelled';
  const customer = { tankaType: client?.cl_tanka_type, kakeRitu: client?.cl_kake_ritu, kinKiri: roundingOf(client?.cl_kin_kiri) };
  const orderDate = date || formatDate(new Date());
  const rateOf = (line: EditLine): number | undefined => rateOn(periods, line.taxClass, orderDate);
  /** A line's quantity and price as the save will read them (lib/orders/lines), with the server's refusals. */
  const checkOf = (line: EditLine): { quantity?: number; price?: number; problems: LineProblems } => {
    const checked = checkLine(line);
    const refused = lineRefusals[line.key] ?? {};
    if (!checked.ok) return { problems: { ...refused, ...checked.fields } };
    return { quantity: checked.quantity, price: checked.price ?? unitPriceFor(line.itemPrice, customer), problems: refused };
  };
  const filled = lines.filter((l) => l.it_id !== '');
  const invalidLines = filled.filter((l) => Object.keys(checkOf(l).problems).length > 0);
  const amounts: TaxedAmount[] = filled.flatMap((l) => {
    const { quantity, price } = checkOf(l);
    return quantity === undefined || price === undefined ? [] : [{ amount: lineAmount(quantity, price), taxClass: l.taxClass, taxRate: rateOf(l) ?? 0 }];
  });
  // The fee the save charges: the one entered, else the shipping prefecture's (lib/orders/delivery-fee, as the server).
  const feeText = String(fee ?? '').trim();
  const shipEntered = ship.some((value) => String(value ?? '').trim() !== '');
  const shipPref = shipEntered ? String(ship[SHIP_PARTS.indexOf('pref')] ?? '') : !id && client ? shippingOf(client).od_ship_pref : '';
  const prefFee = feeText === '' ? feeIn(fees, shipPref) : undefined;
  const feeValue = feeText === '' ? prefFee?.fee ?? 0 : integerIn(feeText, 0, 9_999_999);
  const countable = invalidLines.length === 0 && feeValue !== undefined;
  const totals = orderTotalsWithFee(amounts, feeValue ?? 0, rateOn(periods, 'standard', orderDate) ?? 0, roundingOf(client?.cl_zei_kiri));
  const dirty = form.formState.isDirty || linesKey(lines) !== loadedLines;
  useLeaveGuard(dirty && !busy && !missing);

  const setLine = (key: number, patch: Partial<EditLine>) => {
    setLines((now) => now.map((l) => (l.key === key ? { ...l, ...patch } : l)));
    setLineRefusals((now) => (now[key] ? Object.fromEntries(Object.entries(now).filter(([k]) => Number(k) !== key)) : now));
  };
  const pickItem = async (key: number, itemId: string) => {
    setLine(key, { it_id: itemId });
    if (!itemId) return;
    const [item] = await call<Row>('item_dtl', { id: itemId });
    if (item) setLine(key, { name: String(item.it_name), itemPrice: Number(item.it_price ?? 0), taxClass: String(item.it_tax_class) as TaxClass, price: '' });
  };

  /** Marks the fields a refusal names: the order's under their inputs, the lines' (`lines.{i}.{field}`) in their rows. */
  const markRefusal = (error: CallError) => {
    const refusals: Record<number, LineProblems> = {};
    for (const [name, message] of Object.entries(error.fields ?? {})) {
      const line = /^lines\.(\d+)\.(it_id|quantity|price)$/.exec(name);
      const key = line ? filled[Number(line[1])]?.key : undefined;
      if (line && key !== undefined) refusals[key] = { ...refusals[key], [line[2]]: message };
      else if (def.fields.some((f) => f.name === name)) form.setError(name, { type: 'server', message });
    }
    setLineRefusals(refusals);
    focusFirst(Object.keys(error.fields ?? {}));
  };

  /** Focuses the first named field (an order field, or a line's input). */
  const focusFirst = (names: readonly string[]) => {
    const first = names[0];
    if (!first) return;
    const line = /^lines\.(\d+)\.(it_id|quantity|price)$/.exec(first);
    const key = line ? filled[Number(line[1])]?.key : undefined;
    if (line && key !== undefined) document.getElementById(`line-${key}-${line[2] === 'it_id' ? 'item' : line[2]}`)?.focus();
    else if (def.fields.some((f) => f.name === first)) form.setFocus(first);
  };

  /** Writes the form and its lines with one `order_save`: the saved order, or undefined with the refusal shown. */
  const persist = async (values: FormRecord): Promise<Row | undefined> => {
    if (invalidLines.length > 0) {
      setProblem('明細に誤りがあります。赤く表示された項目を確認してください。');
      const first = invalidLines[0];
      const field = checkOf(first).problems.quantity ? 'quantity' : 'price';
      document.getElementById(`line-${first.key}-${field}`)?.focus();
      return undefined;
    }
    const postData = {
      ...fromForm(def, values), modified: String(record?.modified ?? ''),
      lines: filled.map((l) => ({ it_id: Number(l.it_id), quantity: l.quantity, price: l.price, name: l.name })),
    };
    if (linesLocked && id) delete (postData as { lines?: unknown }).lines;
    try {
      const [saved] = await call<Row>('order_save', id ? { id, postData } : { postData });
      return saved;
    } catch (error) {
      if (!(error instanceof CallError)) throw error;
      setProblem(error.message);
      markRefusal(error);
      return undefined;
    }
  };

  const onInvalid = (errors: FieldErrors<FormRecord>) => {
    setProblem('入力内容に誤りがあります。赤く表示された項目を確認してください。');
    focusFirst(def.fields.map((f) => f.name).filter((name) => errors[name]));
  };

  const save = form.handleSubmit(async (values) => {
    setProblem('');
    setNotice('');
    setBusy(true);
    try {
      const saved = await persist(values);
      if (!saved) return;
      alert(MESSAGES.saved);
      if (!id) {
        await navigate(`/orders/detail/${String(saved.od_id)}`, { replace: true, force: true });
        return;
      }
      await load();
    } finally {
      setBusy(false);
    }
  }, onInvalid);

  /**
   * Moves the order to a status: 保留 asks its reason first; changes still on screen are saved first (a
   * refused save stops the move); a refused move marks every field it names.
   */
  const move = async (target: string) => {
    if (!id || !isOrderStatus(target)) return;
    setProblem('');
    setNotice('');
    let reason = '';
    if (target === 'pending') {
      const given = await prompt('この受注を保留にする理由を入力してください。理由は受注の「保留理由」に残ります。', { title: '保留にする', label: '保留理由', confirmLabel: '保留にする', max: 200 });
      if (given === null) return;
      reason = given;
    }
    if (dirty) {
      let saved = false;
      await form.handleSubmit(async (values) => {
        setBusy(true);
        try {
          saved = Boolean(await persist(values));
          if (saved) await load();
        } finally {
          setBusy(false);
        }
      }, onInvalid)();
      if (!saved) return;
    }
    setBusy(true);
    try {
      const [result] = await call<StatusResult>('order_status', { od_id: id, status: target, tracking_no: form.getValues('tracking_no') ?? '', reason });
      await load();
      if (result) setNotice(result.message ?? `「${statusText(result.status)}」にしました。${dirty ? '（変更内容を保存してから状態を変えました）' : ''}`);
    } catch (error) {
      if (!(error instanceof CallError)) throw error;
      setProblem(error.message);
      markRefusal(error);
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

  if (missing) return <RecordNotFound label={def.label} back={{ to: '/orders/list/search', label: '受注検索へ戻る' }} />;
  if (!ready) {
    return problem ? <p role="alert" className="m-[16px] rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[14px] text-danger">{problem}</p> : null;
  }

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
            refLabel={record ? String(record[labelColumnOf(def, field.name)] ?? '') : undefined} creating={!id} />
        ))}
      </div>
      {clientId && (
        <p className="text-[14px] text-ink-soft" data-testid="last-order">
          {previous ? (
            <>
              前回の受注: <AppLink to={`/orders/detail/${String(previous.od_id)}`} className="text-brand underline">{String(previous.od_number ?? '')}</AppLink>
              （{String(previous.od_date ?? '')}・{statusText(String(previous.od_status ?? ''))}・{formatMoney(Number(previous.od_uriage_total ?? 0))}）
            </>
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
              {lines.map((line, index) => {
                const { quantity, price, problems } = checkOf(line);
                const cell = (field: 'quantity' | 'price', label: string, width: string, placeholder?: string) => (
                  <td className="px-[8px] py-[4px] align-top">
                    <input
                      id={`line-${line.key}-${field}`}
                      aria-label={`${index + 1}行目の${label}`}
                      aria-invalid={problems[field] ? true : undefined}
                      aria-describedby={problems[field] ? `line-${line.key}-${field}-error` : undefined}
                      inputMode="numeric"
                      className={`${inputClass} ${width} text-right`}
                      value={line[field]}
                      placeholder={placeholder}
                      disabled={linesLocked}
                      onChange={(e) => setLine(line.key, { [field]: e.target.value })}
                      onBlur={(e) => {
                        const half = halfWidthOf(field === 'quantity' ? LINE_QUANTITY : LINE_PRICE, e.target.value);
                        if (half !== e.target.value) setLine(line.key, { [field]: half });
                      }}
                    />
                    {problems[field] && <p id={`line-${line.key}-${field}-error`} role="alert" className="mt-[2px] max-w-[200px] text-left text-[12px] text-danger">{problems[field]}</p>}
                  </td>
                );
                return (
                  <tr key={line.key} className="border-t border-line">
                    <td className="min-w-[240px] px-[8px] py-[4px] align-top">
                      <label htmlFor={`line-${line.key}-item`} className="visually-hidden">{index + 1}行目の商品</label>
                      <RefPicker field={{ ...ITEM_FIELD, label: `${index + 1}行目の商品` }} inputId={`line-${line.key}-item`} value={line.it_id} label={line.name} onChange={(value) => void pickItem(line.key, value)} disabled={linesLocked} invalid={Boolean(problems.it_id)} />
                      {problems.it_id && <p role="alert" className="mt-[2px] text-[12px] text-danger">{problems.it_id}</p>}
                    </td>
                    {cell('quantity', '数量', 'w-[80px]')}
                    {cell('price', '単価', 'w-[110px]', line.it_id ? String(unitPriceFor(line.itemPrice, customer)) : '')}
                    <td className="px-[8px] py-[10px] text-right align-top tabular-nums">{line.it_id ? (line.taxClass === 'exempt' ? '非課税' : formatRate(rateOf(line))) : ''}</td>
                    <td className="px-[8px] py-[10px] text-right align-top tabular-nums" data-testid={`line-${index + 1}-amount`}>
                      {line.it_id ? (quantity === undefined || price === undefined ? '—' : formatMoney(lineAmount(quantity, price))) : ''}
                    </td>
                    <td className="px-[8px] py-[4px] align-top">
                      {!linesLocked && (
                        <button type="button" className={buttonClass('ghost', 'sm')} onClick={() => setLines((now) => now.filter((l) => l.key !== line.key))}>
                          削除<span className="visually-hidden">（{index + 1}行目）</span>
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
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
          {countable && totals.rates.map((r) => (
            <div key={r.key} className="contents" data-testid={`rate-${r.key}`}>
              <dt>{r.label}</dt>
              <dd className="text-right tabular-nums">{formatMoney(r.net)}（税 {formatMoney(r.tax)}）</dd>
            </div>
          ))}
          <dt>うち送料（税抜・標準税率）</dt>
          <dd className="text-right tabular-nums" data-testid="delivery-fee">
            {feeValue === undefined ? '—' : formatMoney(feeValue)}
            {feeText === '' && (prefFee ? `（${prefFee.prefName}の送料）` : shipPref ? '' : '（配送先の都道府県なし）')}
          </dd>
          <dt>小計（税抜）</dt>
          <dd className="text-right tabular-nums" data-testid="net-total">{countable ? formatMoney(totals.net) : '—'}</dd>
          <dt>消費税</dt>
          <dd className="text-right tabular-nums" data-testid="tax-total">{countable ? formatMoney(totals.tax) : '—'}</dd>
          <dt className="font-bold">合計（税込）</dt>
          <dd className="text-right font-bold tabular-nums" data-testid="grand-total">{countable ? formatMoney(totals.total) : '—'}</dd>
        </dl>
        {!countable && <p className="mt-[6px] text-[12px] text-danger">明細または送料に誤りがあるため、合計を計算できません。赤く表示された項目を直してください。</p>}
        {feeText === '' && feeRows.error && <p className="mt-[6px] text-[12px] text-muted">都道府県別送料を読み込めないため、送料は保存時に配送先の都道府県の送料になります。</p>}
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
