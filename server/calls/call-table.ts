/**
 * The ONE call table: every `POST {dbApi}/{call}` is an entry here. Each area plugin adds its
 * calls; the calls plugin looks them up, authenticates, checks the role and runs the handler.
 */
import type { Area, Level } from '../../lib/permissions';
import type { AppDatabase } from '../db/connect';
import type { Config } from '../config';
import type { Jobs } from '../jobs/jobs';
import type { Params } from '../http/params';

/** The user a valid auth key belongs to. */
export interface SessionUser {
  user_id: number;
  user_email: string;
  user_name: string;
  user_role: string;
  /** The areas of the user's role, read from the `role` table with the session (管理: every area at write). */
  areas: Record<Area, Level>;
  /** sha256 of the auth key the call came with (logout deletes it). */
  keyHash: string;
}

export interface CallContext {
  call: string;
  params: Params;
  user: SessionUser;
}

export interface CallDef {
  /** Permission area checked with `can()`; null: any logged-in user. */
  area: Area | null;
  level: 'read' | 'write';
  /** Lets a call through that the role table refuses (e.g. a user's own profile). */
  allow?(ctx: CallContext): boolean;
  /** Answers the JSON array of the call, or a file (`FileAnswer`). */
  handler(ctx: CallContext): Promise<unknown[] | FileAnswer>;
}

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

/**
 * Adds a call; a name can be defined only once.
 * @example addCall(calls, 'master_lst', { area: null, level: 'read', handler })
 */
export function addCall(calls: CallTable, name: string, def: CallDef): void {
  if (calls.has(name)) throw new Error(`call ${name} is defined twice`);
  calls.set(name, def);
}
