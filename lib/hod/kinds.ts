/** Codes of the regular-delivery settings, shared by the declarations (client bundle) and the engine (lib/hod/schedule.ts). */

/** What happens to a delivery whose day is a Sunday or a public holiday (`haiso_holiday`, options HAISO_HOLIDAY). */
export const HOLIDAY_RULE = { next: '1', previous: '2', skip: '3' } as const;
export type HolidayRule = (typeof HOLIDAY_RULE)[keyof typeof HOLIDAY_RULE];

/** Kinds of a customer's schedule exception (`hodpause.kind`, options HOD_EXCEPTION_KIND). */
export const EXCEPTION_KIND = { pause: '1', skip: '2' } as const;

/** One due delivery as `hod_preview` answers it: the engine's delivery with the customer's name and new anchor. */
export interface HodPreviewRow {
  cl_id: number;
  cl_label: string;
  date: string;
  original_date: string;
  quantity: number;
  status: 'deliver' | 'skip';
  note: string;
  /** The customer's `next_shipping_date` after the range. */
  next_shipping_date: string | null;
}

/** `hod_preview`'s answer (one element): the range's counts and one page of its deliveries (date, customer order). */
export interface HodPreview {
  from: string;
  to: string;
  /** Scheduled customers read (haiso_flag = 1). */
  customers: number;
  /** Deliveries made / skipped in the range, bottles in all, deliveries moved off a Sunday or holiday. */
  deliveries: number;
  skipped: number;
  bottles: number;
  moved: number;
  /** The page of rows (n, p) and the number of rows in all. */
  total: number;
  rows: HodPreviewRow[];
}

/** `hod_generate`'s answer (one element): what the run did. */
export interface HodGenerateResult {
  from: string;
  to: string;
  /** Orders created (of them `held` put on 保留 by the credit limit). */
  created: number;
  /** Deliveries that already had their order (an earlier run). */
  existed: number;
  held: number;
  /** Deliveries skipped (pause, skip, holiday rule) or without bottles: no order. */
  skipped: number;
  /** Customers whose next_shipping_date moved forward. */
  advanced: number;
  /** The created orders' ids. */
  orders: number[];
}

/** The delivery list's filters (`hod_list`, remembered under KEYS.hodFilters). */
export interface HodListFilters {
  fromDate: string;
  toDate: string;
  team: string;
  userId: string;
  clientId: string;
  coName: string;
}

/** One stop of the delivery list (`hod_list`): an order that is not cancelled, delivered in the range. */
export interface HodListRow {
  od_id: number;
  od_number: string;
  od_delivery_date: string;
  od_status: string;
  /** The scheduled day of a generated regular delivery ('' for another order). */
  od_hod_date: string;
  cl_id: number;
  cl_label: string;
  /** The customer's delivery staff (配送担当者ID), null when none. */
  user_id: number | null;
  user_name: string;
  user_team: string;
  address: string;
  tel: string;
  /** The time slot's text (配達時間帯). */
  time_slot: string;
  /** Returnable bottles of the order's lines. */
  bottles: number;
  /** 集金額: the order's total when it is paid on delivery (a 支払方法 with フラグ 1), else 0. */
  collect: number;
  /** 備考: the order's note and the customer's メモ (delivery instructions), joined by ／. */
  note: string;
}
