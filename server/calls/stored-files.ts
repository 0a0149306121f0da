/**
 * Files the server keeps for a while under its data directory (a billing batch's PDF and ZIP, an import's uploaded file):
 * removed once older than their keeping time, by whichever process next writes such a file.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { nowMs } from '../http/clock';

/**
 * Removes the files of `dir` last written more than `keepMs` ago (a missing directory holds none).
 * @example pruneOldFiles(join(dataDir, 'imports'), 24 * 60 * 60 * 1000)
 */
export function pruneOldFiles(dir: string, keepMs: number, now = nowMs()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > keepMs) rmSync(path, { force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
