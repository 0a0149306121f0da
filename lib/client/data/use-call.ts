/**
 * Reading a call through SWR, typed by the call map (lib/protocol/calls.ts): the key is `[name, params]`, the
 * data the call's answer rows. The data hooks of lib/client/data/ are built on it; screens call those hooks.
 */
import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr';
import type { AnswerOf, CallName, ParamsOf } from '../../protocol/calls';
import { call, type ParamsArg } from '../api/fetcher';

/** SWR fetcher for `[name, params]` keys. */
export const callFetcher = <N extends CallName>([name, params]: readonly [N, ParamsOf<N>]): Promise<AnswerOf<N>[]> =>
  call(name, ...([params] as ParamsArg<N>));

/**
 * The answer of `name` with `params` (null: not now), cached under the key `[name, params]`.
 * @example const { data } = useCall('mail_status', {}, { dedupingInterval: 60_000 })
 */
export function useCall<N extends CallName>(name: N, params: ParamsOf<N> | null, config?: SWRConfiguration<AnswerOf<N>[], Error>): SWRResponse<AnswerOf<N>[], Error> {
  return useSWR<AnswerOf<N>[], Error, readonly [N, ParamsOf<N>] | null>(params === null ? null : ([name, params] as const), callFetcher, config);
}
