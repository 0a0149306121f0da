'use client';
/**
 * The login page (spec §4/§8): e-mail and password, the server's message in an alert when refused,
 * a silent logout when the login host cannot be reached, and the home screen on success.
 */
import { useStore } from 'jotai';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { CallError, login } from '@/lib/client/api/fetcher';
import { applyLogin, logout } from '@/lib/client/auth';
import { MESSAGES } from '@/lib/protocol';
import { navigate } from '@/lib/client/router';
import { toHalfWidth } from '@/lib/text';

const inputClass =
  'h-[36px] w-full rounded-[4px] border border-line-strong bg-surface px-[10px] text-[1.4rem] text-ink placeholder:text-muted/70 focus:border-brand focus:outline-none focus:ring-[3px] focus:ring-brand/20';

export function LoginPage() {
  const store = useStore();
  const emailId = useId();
  const passwordId = useId();
  const errorId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = 'ログイン | 宅配水 業務管理';
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const address = toHalfWidth(email).trim();
    if (!address || !password) {
      setError(MESSAGES.loginMissing);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const user = await login(address, password);
      if (!user) {
        // The login host could not be reached: logged out, without a message (spec §8).
        await logout({ remote: false, store });
        return;
      }
      applyLogin(user, store);
      await navigate('/', { replace: true, force: true });
    } catch (err) {
      setError(err instanceof CallError && err.message ? err.message : MESSAGES.loginFailed);
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-dvh items-center justify-center bg-canvas px-[16px] py-[40px]">
      <div className="w-full max-w-login">
        <div className="mb-[20px] flex flex-col items-center gap-[10px] text-center">
          <svg aria-hidden="true" viewBox="0 0 32 32" className="size-[44px]">
            <rect width="32" height="32" rx="8" fill="#1f3544" />
            <path d="M16 5c-4.2 6-7.5 10.2-7.5 14a7.5 7.5 0 0 0 15 0C23.5 15.2 20.2 11 16 5z" fill="#6fb6d3" />
          </svg>
          <h1 className="text-[2rem] font-bold tracking-[0.04em] text-ink">宅配水 業務管理</h1>
        </div>
        <form
          noValidate
          onSubmit={(event) => void submit(event)}
          aria-labelledby={`${emailId}-title`}
          className="rounded-[8px] border border-line bg-surface px-[24px] pb-[24px] pt-[20px] shadow-[0_2px_8px_rgba(16,40,56,0.06)]"
        >
          <h2 id={`${emailId}-title`} className="mb-[16px] text-[1.6rem] font-semibold">
            ログイン
          </h2>
          {error && (
            <p
              id={errorId}
              role="alert"
              className="mb-[14px] rounded-[4px] border border-danger/30 bg-danger-soft px-[12px] py-[8px] text-[1.3rem] leading-[1.6] text-danger"
            >
              {error}
            </p>
          )}
          <div className="mb-[14px] flex flex-col gap-[6px]">
            <label htmlFor={emailId} className="text-[1.3rem] font-medium text-ink-soft">
              メールアドレス
            </label>
            <input
              id={emailId}
              type="email"
              inputMode="email"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              className={inputClass}
            />
          </div>
          <div className="mb-[20px] flex flex-col gap-[6px]">
            <label htmlFor={passwordId} className="text-[1.3rem] font-medium text-ink-soft">
              パスワード
            </label>
            <input
              id={passwordId}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              className={inputClass}
            />
          </div>
          <Button type="submit" variant="primary" aria-busy={busy || undefined} className="h-[38px] w-full text-[1.5rem]">
            {busy && <Spinner size={16} tone="light" />}
            ログイン
          </Button>
        </form>
        <p className="mt-[16px] text-center text-[1.2rem] leading-[1.7] text-muted">
          パスワードがわからない場合は、管理者に再設定を依頼してください。
        </p>
      </div>
    </main>
  );
}

export default LoginPage;
