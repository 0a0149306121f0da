/**
 * The ONE call table: every `POST {dbApi}/{call}` is an entry here. Each area plugin adds its
 * calls; the calls plugin looks them up, authenticates, checks the role and runs the handler.
 */
import { LIMITS } from '../../lib/protocol';
import { CALL_GATES, type CallGate as MapGate, type CallName } from '../../lib/protocol/calls';
import type { AppDatabase } from '../db/connect';
import type { Config } from '../config';
import type { Jobs } from '../jobs/jobs';
import type { Params } from '../http/params';
import type { Readable } from 'node:stream';
import type { SessionUser } from './session-user';

export type { SessionUser } from './session-user';

export interface CallContext {
  call: string;
  params: Params;
  user: SessionUser;
}

interface CallGate extends MapGate {
  /** Lets a call through that the role table refuses (e.g. a user's own profile). */
  allow?(ctx: CallContext): boolean;
}

/** A call taking form-encoded parameters. */
export interface PlainCallDef extends CallGate {
  upload?: undefined;
  /** Answers the JSON array of the call, or a file (`FileAnswer`). */
  handler(ctx: CallContext): Promise<unknown[] | FileAnswer>;
}

/**
 * What a call taking a file accepts (server/calls/upload.ts). Its body is `multipart/form-data`: the call's
 * parameters (authKey included) as text fields FIRST, then the one file under `field` — so the caller is
 * authenticated and checked before a byte of the file is read.
 */
export interface UploadDef {
  /** The multipart field holding the file, e.g. 'file'. */
  field: string;
  /** The most bytes the file may hold (≤ LIMITS.maxUploadBytes); more is 413 naming the limit. */
  maxBytes: number;
  /** Extensions (`.csv`, lower case) matched against the file's name, and media types matched against its type: either suffices. */
  accept: { extensions: readonly string[]; types: readonly string[] };
  /** The table whose readers see the upload's audit row (who sent which file) in /system/log. */
  auditTable: string;
}

/** The uploaded file as the handler gets it. */
export interface UploadedFile {
  /** The file name the browser sent (no path). */
  name: string;
  /** The media type the browser sent ('' when none). */
  type: string;
  /**
   * The file's bytes as they arrive (read it before answering). Past `maxBytes` it fails with the 413
   * refusal, so a handler that reads it inside its transaction rolls back.
   */
  stream: Readable;
  /** Bytes read so far: the file's size once `stream` has ended. */
  readonly size: number;
}

export interface UploadContext extends CallContext {
  upload: UploadedFile;
}

/** A call taking a file (`multipart/form-data`) besides its parameters. */
export interface UploadCallDef extends CallGate {
  upload: UploadDef;
  /** Answers like any call; the machinery writes the upload's audit row after it succeeds. */
  handler(ctx: UploadContext): Promise<unknown[] | FileAnswer>;
}

export type CallDef = PlainCallDef | UploadCallDef;

/**
 * A call's answer that is a file (CSV; later PDF, ZIP) instead of a JSON array, saved by the client
 * under `name` (`Content-Disposition` attachment, filename* in UTF-8 with `asciiName` as the fallback).
 * A `body` given as chunks is streamed as the client reads them (backpressure): the first chunk is made
 * before anything is sent, so a failure up to then is the usual `[{ error }]` answer.
 */
export interface FileAnswer {
  file: {
    name: string;
    asciiName: string;
    contentType: string;
    body: Buffer | AsyncIterable<Buffer>;
    /** Further headers known before the first byte (e.g. how many rows a CSV will hold). */
    headers?: Record<string, string>;
    /** Values known only after the last byte, sent as HTTP trailers (e.g. replaced characters). */
    trailers?: Record<string, () => string>;
  };
}

/** Whether a handler answered a file. */
export const isFileAnswer = (answer: unknown[] | FileAnswer): answer is FileAnswer => !Array.isArray(answer);

export type CallTable = Map<string, CallDef>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The one call table (read-only use: tests generate their cases from it). */
    callTable: CallTable;
  }
}

/** Options every area plugin receives from `buildApp`. */
export interface AreaOptions {
  calls: CallTable;
  database: AppDatabase;
  config: Config;
  /** This process's jobs (server/jobs/jobs.ts): long work started by a call and watched through `job_dtl`. */
  jobs: Jobs;
}

/** A call's definition as an area plugin writes it: its gate comes from the call map (lib/protocol/calls.ts). */
export type CallImpl<D extends CallDef = CallDef> = Omit<D, 'area' | 'level'>;

/**
 * Adds a call of the call map (lib/protocol/calls.ts), gated as the map says; a name can be defined only once.
 * @example addCall(calls, 'master_lst', { handler })
 */
export function addCall(calls: CallTable, name: CallName, def: CallImpl<UploadCallDef>): void;
export function addCall(calls: CallTable, name: CallName, def: CallImpl<PlainCallDef>): void;
export function addCall(calls: CallTable, name: CallName, def: CallImpl): void {
  const gate = CALL_GATES.get(name);
  if (!gate) throw new Error(`call ${name} is not in the call map (lib/protocol/calls.ts)`);
  if (calls.has(name)) throw new Error(`call ${name} is defined twice`);
  if (def.upload && !(def.upload.maxBytes > 0 && def.upload.maxBytes <= LIMITS.maxUploadBytes)) throw new Error(`call ${name}: upload.maxBytes must lie in 1 … LIMITS.maxUploadBytes`);
  calls.set(name, { ...def, area: gate.area, level: gate.level });
}
