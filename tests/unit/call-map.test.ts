/**
 * The call map (lib/protocol/calls.ts) and the server's call table are the same calls with the same gates: every
 * call the app registers is in the map, every call of the map is registered, and the resource list the map's
 * types are written over is RESOURCES'.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CALL_GATES, FIXED_CALLS, RESOURCE_NAMES } from '@/lib/protocol/calls';
import { RESOURCE_LIST, RESOURCES } from '@/lib/resources';
import { buildApp } from '@/server/app';
import { loadConfig } from '@/server/config';

describe('call map', () => {
  let app: FastifyInstance;
  const dir = mkdtempSync(join(tmpdir(), 'call-map-'));

  beforeAll(async () => {
    app = await buildApp(loadConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', DATABASE_URL: '' }));
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds every call the server registers, with its gate, and no other', () => {
    const registered = [...app.callTable].map(([name, def]) => [name, def.area, def.level]).sort();
    const mapped = [...CALL_GATES].map(([name, gate]) => [name, gate.area, gate.level]).sort();
    expect(registered.length).toBeGreaterThan(200);
    expect(registered).toEqual(mapped);
  });

  it('is written over the declared resources, each child-rows call under its parent’s area', () => {
    expect([...RESOURCE_NAMES].sort()).toEqual(Object.keys(RESOURCES).sort());
    for (const def of RESOURCE_LIST) {
      if (!def.children) continue;
      expect(FIXED_CALLS, def.children.call).toHaveProperty(def.children.call);
      expect(CALL_GATES.get(def.children.call as keyof typeof FIXED_CALLS)).toEqual({ area: def.area, level: 'read' });
    }
  });
});
