'use client';
import { Component, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { isLoadError } from '@/components/screens/registry';

interface Props {
  /** Title of the screen (kept as the page heading when it fails). */
  title: string;
  /** Draws the screen; called again on retry so a fresh import is made. */
  render: () => ReactNode;
  /** Forget the failed import before retrying. */
  onRetry: () => void;
}

interface State {
  error: unknown;
}

/**
 * Catches a screen that failed to load (missing chunk, 120 s time-out) or to draw, and offers
 * 「再読み込み」, which imports the screen again, instead of a white page.
 */
export class ScreenBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  componentDidCatch(error: unknown): void {
    console.error('画面の表示に失敗しました', error);
  }

  private retry = () => {
    this.props.onRetry();
    this.setState({ error: null });
  };

  render() {
    if (!this.state.error) return this.props.render();
    const loadFailed = isLoadError(this.state.error);
    return (
      <div className="flex max-w-[720px] flex-col gap-[16px] p-[16px]">
        <h1 className="text-[2rem] font-bold">{this.props.title}</h1>
        <Card>
          <div role="alert">
            <p className="font-semibold text-danger">
              {loadFailed ? '画面の読み込みに失敗しました。' : '画面の表示中にエラーが発生しました。'}
            </p>
            <p className="mt-[6px] leading-[1.8] text-ink-soft">
              {loadFailed
                ? '通信が不安定か、システムが更新された可能性があります。「再読み込み」を押してください。'
                : '「再読み込み」を押しても解決しない場合は、管理者に連絡してください。'}
            </p>
          </div>
          <p className="mt-[14px]">
            <Button variant="primary" onClick={this.retry}>
              再読み込み
            </Button>
          </p>
        </Card>
      </div>
    );
  }
}
