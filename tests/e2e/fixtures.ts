import { expect, type Page } from '@playwright/test';
import { E2E } from '../../playwright.config';

export { E2E };

/** Logs in through the real login form and waits for the home screen. */
export async function login(page: Page, email = E2E.adminEmail, password = E2E.adminPassword, base = '/'): Promise<void> {
  await page.goto(base);
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード').fill(password);
  await page.getByRole('button', { name: 'ログイン' }).click();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'メニュー' })).toBeVisible();
}

/** Collects uncaught page errors so a test can assert that none happened. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Collects CSP violations: the document's events (listened to before any page script) and console reports. */
export async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
    document.addEventListener('securitypolicyviolation', (e) => report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`));
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy|Permissions.Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}
