#!/usr/bin/env node
/**
 * The issue-3 rule "no screen or handler copied between resources": runs the workplace's
 * `duplicates` tool over components/ and server/ and fails on any pair of places, not boilerplate,
 * in two different resource-specific files (a resource's panel or screen, policy, or area plugin).
 * Exits with code 3 and says `skipped` when the tool is not installed.
 */
import { spawnSync } from 'node:child_process';

const probe = spawnSync('duplicates', ['--help'], { encoding: 'utf8' });
if (probe.error) {
  console.log('duplicates: skipped (the duplicates tool is not installed here)');
  process.exit(3);
}
/** Code that belongs to one resource or area, as opposed to the shared machinery. */
const RESOURCE_SPECIFIC = /^(resource\/extensions\/|screens\/(?!login|home|registry|custom-screens|screen-props|work-screen)|[^/]+\/[^/]+-policy\.ts|mail\/|stock\/|system\/|tax\/)/;
const offending = [];
for (const repo of ['components', 'server']) {
  // 10 lines: a copied screen or handler is longer than the closing tags two tables share.
  const run = spawnSync('duplicates', ['--repo', repo, '--min-lines', '10', '--most', '200', '--seconds', '120'], { encoding: 'utf8' });
  const out = run.stdout ?? '';
  console.log(`duplicates --repo ${repo}\n${out.trim()}`);
  for (const line of out.split('\n')) {
    const m = /^D\d+ (\S+):\d+-\d+ ~ (\S+):\d+-\d+(.*)$/.exec(line);
    if (!m) continue;
    const [, a, b, rest] = m;
    if (a === b || rest.includes('boilerplate') || ![a, b].every((f) => RESOURCE_SPECIFIC.test(f))) continue;
    offending.push(`${repo}/${a} ~ ${repo}/${b}${rest}`);
  }
}
if (offending.length) {
  console.log(`code copied between resources:\n${offending.join('\n')}`);
  process.exit(1);
}
console.log('duplicates: no screen or handler copied between resources in components/ or server/');
