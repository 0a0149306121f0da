import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: '宅配水 業務管理',
  description: '宅配水・ウォーターサーバー事業の業務管理システム',
  robots: { index: false, follow: false },
  icons: { icon: [{ url: './icon.svg', type: 'image/svg+xml' }] },
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: '#1f3544',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="ja">
      <body>
        {children}
        <noscript>
          <p style={{ padding: '2rem' }}>この業務管理システムを使うには JavaScript を有効にしてください。</p>
        </noscript>
      </body>
    </html>
  );
}
