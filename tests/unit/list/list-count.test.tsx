/**
 * The total above a list past 10,000 rows (components/resource/pagination.tsx `ListPagination`, exact-count.tsx): a
 * `{r}_cnt` answer `[10000, { more: true }]` shows 「10,000件以上」 with 「正確に数える」, the next pages stay open;
 * the button's `count_exact` answers the figure at once, or a job whose progress is shown until its figure.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import ResourceListScreen from '@/components/resource/resource-list-screen';
import type { JobInfo } from '@/lib/jobs';
import { mockCalls, shell, unknownCall } from '../support/mock-calls';

let exact: 'now' | 'job' = 'now';
let polls = 0;
const job = (state: JobInfo['state'], done: number, result: { count: number } | null): JobInfo => ({
  job_id: 7, kind: 'count_exact', scope: 'client:abc', params: {}, state, done, total: 40_000, result, error: '', cancelling: false,
  started: '2026-11-27T09:00:00.000Z', finished: '', user_id: 1, user_name: '管理 太郎',
});

const { called } = mockCalls((name) => {
  if (name === 'client_lst') return HttpResponse.json(Array.from({ length: 10 }, (_, i) => ({ cl_id: 100 - i, cl_co_name: `会社${i}` })));
  if (name === 'client_cnt') return HttpResponse.json([10_000, { more: true }]);
  if (name === 'count_exact') return HttpResponse.json([exact === 'now' ? { count: 12_345 } : { job_id: 7 }]);
  if (name === 'job_dtl') {
    polls++;
    return HttpResponse.json([polls < 2 ? job('running', 20_000, null) : job('done', 40_000, { count: 20_001 })]);
  }
  if (name === 'master_lst' || name === 'search_lst') return HttpResponse.json([]);
  return unknownCall();
});

describe('a list past 10,000 rows', () => {
  it('shows 「10,000件以上」, keeps the next page open, and 「正確に数える」 shows the exact figure', async () => {
    exact = 'now';
    shell(<ResourceListScreen resource="client" />);
    expect(await screen.findByText('10,000件以上')).toBeInTheDocument();
    const [next] = screen.getAllByRole('button', { name: '次へ' });
    expect(next).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: '正確に数える' }));
    expect(await screen.findByText('全 12,345 件')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '正確に数える' })).toBeNull();
    expect(called('count_exact')[0].body).toMatchObject({ resource: 'client', kw: '' });
    expect(screen.getAllByRole('button', { name: '1235ページ' }).length).toBeGreaterThan(0);
  });

  it('follows the job of a long count, its progress shown, to its figure', async () => {
    exact = 'job';
    polls = 0;
    shell(<ResourceListScreen resource="client" />);
    fireEvent.click(await screen.findByRole('button', { name: '正確に数える' }));
    const bar = await screen.findByRole('progressbar', { name: '件数の集計の進み具合' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByRole('button', { name: '正確に数える' })).toBeDisabled();
    expect(await screen.findByText('全 20,001 件', {}, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });
});
