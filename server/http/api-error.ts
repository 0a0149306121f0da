/**
 * The one error type of the API: a status, a Japanese message from `lib/protocol`, and optional
 * extra keys for the answer (`fields` of a failed save). The error handler answers `[{ error, …extra }]`.
 */
import { AUTH_KEY_ERROR, MESSAGES } from '../../lib/protocol';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 400 with a message (default: the generic bad-request message). */
export const badRequest = (message: string = MESSAGES.badRequest, extra?: Record<string, unknown>): ApiError =>
  new ApiError(400, message, extra);

/** 404: the record does not exist or was deleted. */
export const notFound = (): ApiError => new ApiError(404, MESSAGES.notFound);

/** 401 with the auth-key error: no session has the key — unknown, expired, or holding what no key holds (a control character). */
export const wrongAuthKey = (): ApiError => new ApiError(401, AUTH_KEY_ERROR);
