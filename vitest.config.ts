import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    environment: 'jsdom',
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/unit/setup.ts'],
    pool: 'threads',
    maxWorkers: 2,
    restoreMocks: true,
    // Component tests render whole screens; on a busy 2-core machine one can take several seconds.
    testTimeout: 15_000,
  },
});
