/**
 * Whether mail can be sent at all (`mail_status`: SMTP set up), read once per session and shared by every screen with
 * a mail button (an invoice's メール送信, the closing's 一括メール送信, a template's テスト送信), which is disabled with
 * the reason instead of failing when pressed.
 */
import { useCall } from '@/lib/client/data/use-call';

/** Why mail cannot be sent now ('' when it can, or while the answer is on its way: the server refuses anyway). */
export function useMailProblem(): string {
  const { data } = useCall('mail_status', {}, { revalidateOnFocus: false, dedupingInterval: 60_000 });
  return data?.[0]?.problem ?? '';
}
