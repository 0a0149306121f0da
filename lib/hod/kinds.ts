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
