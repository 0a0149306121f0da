/**
 * Tailwind's theme for the layout sizes of the product spec §9 (the design card), read by Tailwind 4 through
 * `@config` in app/globals.css. Components name these sizes (`h-header`, `h-row`, `w-menu`, `w-menu-folded`,
 * `max-w-login`, `max-h-card-sm`) instead of writing the pixels; the base font (62.5 %: 1rem = 10px) is set here
 * too, and globals.css rescales Tailwind's rem-based scales to it.
 */
import type { Config } from 'tailwindcss';
import plugin from 'tailwindcss/plugin';

/** The spec's sizes, by name. */
export const LAYOUT = {
  /** The root font size: 1rem = 10px. */
  baseFontSize: '62.5%',
  /** The header bar's height. */
  header: '40px',
  /** A table row's height. */
  row: '40px',
  /** The side menu open … */
  menu: '180px',
  /** … and folded. */
  menuFolded: '40px',
  /** The login form's largest width. */
  login: '330px',
  /** The small scrolling card's largest height. */
  cardSm: '200px',
} as const;

export default {
  theme: {
    extend: {
      spacing: {
        header: LAYOUT.header,
        row: LAYOUT.row,
        menu: LAYOUT.menu,
        'menu-folded': LAYOUT.menuFolded,
        login: LAYOUT.login,
        'card-sm': LAYOUT.cardSm,
      },
    },
  },
  plugins: [plugin((api) => api.addBase({ html: { fontSize: LAYOUT.baseFontSize } }))],
} satisfies Config;
