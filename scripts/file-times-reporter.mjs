/**
 * A node:test reporter (`--test-reporter=./scripts/file-times-reporter.mjs`) that prints each test file's time, the
 * slowest first: the sum of its top-level tests' durations (hooks included, the process start not). scripts/test.mjs
 * writes it to `.test-reports/api-{dialect}-files.txt`, so where the API suite's time goes is on record after each run.
 */
import { relative } from 'node:path';

export default async function* fileTimes(source) {
  const times = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const file = relative(process.cwd(), event.data.file);
      times.set(file, (times.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  const sorted = [...times].sort((a, b) => b[1] - a[1]);
  const total = sorted.reduce((sum, [, ms]) => sum + ms, 0);
  for (const [file, ms] of sorted) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
  yield `${(total / 1000).toFixed(1).padStart(7)} s  (all files, one after another)\n`;
}
