/**
 * Security headers on every answer (issue 9): a Content-Security-Policy, nosniff, no framing, a referrer
 * policy. Pages get a policy that allows their own inline scripts by sha256 hash (the Next export's
 * bootstrap scripts), never 'unsafe-inline'; everything else (API JSON, assets, config.json) gets one that
 * allows nothing. The Google Maps hosts are added only when a maps key is configured.
 */
import { createHash } from 'node:crypto';
import { readFileSync, type Stats } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

type Policy = Record<string, string[]>;

const PAGE: Policy = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

// Google's documented CSP for the Maps JavaScript API (developers.google.com/maps/documentation/javascript/
// content-security-policy), allowlist form: a static export cannot stamp a per-answer nonce on the scripts
// the loader injects. The API injects <style> elements and style attributes, hence 'unsafe-inline' for styles.
const MAPS: Policy = {
  'script-src': ['https://*.googleapis.com', 'https://*.gstatic.com', "'unsafe-eval'", 'blob:'],
  'style-src': ["'unsafe-inline'", 'https://fonts.googleapis.com'],
  'img-src': ["'self'", 'data:', 'blob:', 'https://*.googleapis.com', 'https://*.gstatic.com', 'https://*.google.com', 'https://*.googleusercontent.com'],
  'font-src': ["'self'", 'https://fonts.gstatic.com'],
  'connect-src': ["'self'", 'https://*.googleapis.com', 'https://*.google.com', 'https://*.gstatic.com', 'data:', 'blob:'],
  'frame-src': ['https://*.google.com'],
  'worker-src': ["'self'", 'blob:'],
};

/** For answers that are not pages: nothing may load, nothing may frame them. */
const NOT_A_PAGE = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const FIXED = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Not no-referrer: a Maps key restricted to our site is checked against the Referer's origin.
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

const CSP = 'content-security-policy';

/**
 * The sha256 sources of a page's inline scripts, as CSP writes them.
 * @example inlineScriptHashes('<script>a()</script>') // ["'sha256-…'"]
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    // The browser hashes the text after its parser turned CR LF into LF.
    const digest = createHash('sha256').update(body.replace(/\r\n?/g, '\n'), 'utf8').digest('base64');
    hashes.add(`'sha256-${digest}'`);
  }
  return [...hashes];
}

/** The policy of a page with these inline-script hashes under this configuration. */
export function pagePolicy(config: Pick<Config, 'mapsApiKey'>, hashes: readonly string[]): string {
  const policy: Policy = { ...PAGE, 'script-src': [...PAGE['script-src'], ...hashes] };
  if (config.mapsApiKey) {
    for (const [directive, sources] of Object.entries(MAPS)) policy[directive] = [...(policy[directive] ?? []), ...sources];
  }
  return Object.entries(policy).map(([directive, sources]) => `${directive} ${sources.join(' ')}`).join('; ');
}

// Per served file: its hashes while its mtime and size stay (a rebuilt bundle gets new ones without a restart).
const fileHashes = new Map<string, { mtimeMs: number; size: number; hashes: string[] }>();

function hashesOfFile(path: string, stat: Stats): string[] {
  const known = fileHashes.get(path);
  if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.hashes;
  const hashes = inlineScriptHashes(readFileSync(path, 'utf8'));
  fileHashes.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, hashes });
  return hashes;
}

/**
 * @fastify/static's `setHeaders`: an HTML file gets its page policy here, where the file is known (also
 * on a 304, whose headers replace the cached page's).
 */
export function staticFileHeaders(config: Config): (reply: FastifyReply, path: string, stat: Stats) => void {
  return (reply, path, stat) => {
    if (/\.html?$/i.test(path)) reply.header(CSP, pagePolicy(config, hashesOfFile(path, stat)));
  };
}

/** The onSend hook that puts the headers on every answer; a policy set already (a bundle page) stays. */
export function securityHeaders(config: Config) {
  return async (_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    reply.headers(FIXED);
    if (!reply.hasHeader(CSP)) {
      const isPage = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
      const html = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
      reply.header(CSP, isPage ? pagePolicy(config, inlineScriptHashes(html)) : NOT_A_PAGE);
    }
    return payload;
  };
}
