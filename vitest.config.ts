import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: the plain `.test.ts` files (rules, arithmetic, formats) run in Node, the `.test.tsx` component tests in
 * jsdom with Testing Library's set-up. A jsdom per file costs about a second on this machine; the plain files do not
 * need one.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    pool: 'threads',
    maxWorkers: 2,
    restoreMocks: true,
    // Component tests render whole screens; on a busy 2-core machine one can take several seconds.
    testTimeout: 15_000,
    projects: [
      { extends: true, test: { name: 'node', environment: 'node', include: ['tests/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'dom', environment: 'jsdom', include: ['tests/unit/**/*.test.tsx'], setupFiles: ['tests/unit/setup.ts'] } },
    ],
  },
});
