/** Fixed option lists shared by several resources (codes as stored, Japanese texts). */
import type { Option } from './types';

const opts = (pairs: readonly (readonly [string, string])[]): Option[] => pairs.map(([value, text]) => ({ value, text }));

export const ROUNDING = opts([['0', '切捨て'], ['1', '切上げ'], ['2', '四捨五入']]);
/** 税転嫁 (lib/money/totals): tax mode and the unit its tax is rounded in; 明細単位 (1) is not offered (not allowed on a qualified invoice). */
export const TAX_UNIT = opts([['2', '外税・伝票単位'], ['3', '外税・請求単位'], ['4', '内税・伝票単位'], ['5', '内税・請求単位']]);
export const CLOSING_DAY = opts([['5', '5日締め'], ['10', '10日締め'], ['15', '15日締め'], ['20', '20日締め'], ['25', '25日締め'], ['31', '末日締め']]);
export const COLLECT_CYCLE = opts([['0', '当月'], ['1', '翌月'], ['2', '翌々月']]);
export const KEISHO = opts([['様', '様'], ['御中', '御中'], ['殿', '殿']]);
export const SEX = opts([['1', '男性'], ['2', '女性']]);
export const RIYOU = opts([['1', '家庭'], ['2', '事業所']]);
export const TORI_KUBUN = opts([['1', '掛売'], ['2', '現金']]);
export const TANKA_TYPE = opts([['1', '標準単価'], ['2', '掛率']]);
export const HAISO_TYPE = opts([['0', 'なし'], ['1', '週ごと'], ['2', '毎月（日付指定）'], ['3', '毎月（曜日指定）']]);
export const HAISO_WEEK = opts([['1', '第1'], ['2', '第2'], ['3', '第3'], ['4', '第4'], ['5', '最終']]);
/** Sundays and public holidays: the delivery moves to the next business day (default), the previous one, or is skipped (lib/hod/schedule.ts). */
export const HAISO_HOLIDAY = opts([['1', '翌営業日'], ['2', '前営業日'], ['3', 'スキップ']]);
export const HOD_EXCEPTION_KIND = opts([['1', '休止期間'], ['2', 'スキップ']]);
export const WEEKDAY = opts([['0', '日曜日'], ['1', '月曜日'], ['2', '火曜日'], ['3', '水曜日'], ['4', '木曜日'], ['5', '金曜日'], ['6', '土曜日']]);
export const ATM_TYPE = opts([['0', '指定なし'], ['1', '午前'], ['2', '午後']]);
/** 請求書の送付方法 (`cl_invoice_delivery`): how a customer's invoices go out. */
export const INVOICE_DELIVERY = opts([['1', '郵送'], ['2', 'メール添付'], ['3', 'メール（ダウンロード）'], ['4', 'デジタルインボイス']]);
export const FEE_TYPE = opts([['0', '当社負担'], ['1', 'お客様負担']]);
export const SHINYOU = opts([['A', 'A（良好）'], ['B', 'B（注意）'], ['C', 'C（要確認）']]);
export const CONTACT_CHANNEL = opts([['1', '電話'], ['2', 'メール'], ['3', 'FAX'], ['4', '来社'], ['5', '訪問'], ['6', 'Webフォーム'], ['9', 'その他']]);
export const CONTACT_STATUS = opts([['1', '未対応'], ['2', '対応中'], ['3', '完了']]);
export const REPORT_KIND = opts([['1', '訪問'], ['2', '電話'], ['3', 'メール'], ['4', 'オンライン商談'], ['5', '展示会・イベント'], ['9', 'その他']]);
export const REPORT_RESULT = opts([['1', '情報提供'], ['2', '見込み（高）'], ['3', '見込み（低）'], ['4', '成約'], ['5', '失注'], ['6', '継続フォロー']]);
export const AGREEMENT_STATUS = opts([['1', '契約中'], ['2', '休止中'], ['9', '解約済']]);
export const TAX_CLASS = opts([['standard', '標準税率'], ['reduced', '軽減税率'], ['exempt', '非課税'], ['outside', '不課税']]);
export const ITEM_UNIT = opts([['本', '本'], ['個', '個'], ['箱', '箱'], ['台', '台'], ['式', '式'], ['回', '回'], ['月', '月']]);
