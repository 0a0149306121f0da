/**
 * A picture stored as a data URL in the form (the customer's `cl_image`): preview, a
 * 「ファイル参照」 button that opens a hidden file input, and 「画像を削除」.
 */
import { useId, useRef, useState } from 'react';
import { MAX_IMAGE_CHARS } from '@/lib/resources/schema';
import { buttonClass } from './styles';
import { cellText } from '../../lib/resources/checks';

/** Largest picture file accepted (its data URL must stay under MAX_IMAGE_CHARS). */
export const MAX_IMAGE_BYTES = Math.floor((MAX_IMAGE_CHARS - 100) * 0.75);
const ACCEPTED = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Why a file cannot be used as the picture, or undefined when it can. */
export function imageFileProblem(file: { type: string; size: number }): string | undefined {
  if (!file.type.startsWith('image/')) return '画像ファイルを選んでください。';
  if (!ACCEPTED.includes(file.type)) return '画像は PNG・JPEG・GIF・WebP のいずれかを選んでください。';
  if (file.size > MAX_IMAGE_BYTES) return `ファイルが大きすぎます（${(MAX_IMAGE_BYTES / 1024 / 1024).toFixed(1)} MB まで）。`;
  return undefined;
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(cellText(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export interface ImageFieldProps {
  label: string;
  value: string;
  onChange: (dataUrl: string) => void;
  disabled?: boolean;
  /** Shows 「参照」 instead of 「ファイル参照」 (the spec's short form under the Japanese language setting). */
  short?: boolean;
  /** Validation message from the form. */
  error?: string;
  /** Id of the element that describes the field (the form's error message). */
  describedBy?: string;
}

export function ImageField({ label, value, onChange, disabled, short, error, describedBy }: ImageFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string>();
  const messageId = useId();
  const pick = async (file: File | undefined) => {
    if (!file) return;
    const why = imageFileProblem(file);
    if (why) {
      setProblem(why);
      return;
    }
    try {
      onChange(await readAsDataUrl(file));
      setProblem(undefined);
    } catch {
      setProblem('ファイルを読み込めませんでした。');
    }
  };
  const shown = problem ?? error;
  return (
    <div role="group" aria-label={label} aria-describedby={[shown ? messageId : '', describedBy ?? ''].join(' ').trim() || undefined} className="flex items-start gap-[12px]">
      <div className="flex h-[120px] w-[160px] shrink-0 items-center justify-center overflow-hidden rounded-[4px] border border-line bg-subtle">
        {value ? <img src={value} alt={label} className="max-h-full max-w-full object-contain" /> : <span className="text-[13px] text-muted">画像なし</span>}
      </div>
      <div className="flex flex-col items-start gap-[6px]">
        <input
          ref={input}
          type="file"
          accept="image/*"
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            void pick(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <button type="button" className={buttonClass('secondary')} onClick={() => input.current?.click()} disabled={disabled}>
          {short ? '参照' : 'ファイル参照'}
        </button>
        <button
          type="button"
          className={buttonClass('ghost')}
          onClick={() => {
            onChange('');
            setProblem(undefined);
          }}
          disabled={disabled || !value}
        >
          画像を削除
        </button>
        <p className="text-[12px] text-muted">PNG・JPEG・GIF・WebP、{(MAX_IMAGE_BYTES / 1024 / 1024).toFixed(1)} MB まで</p>
        {shown && (
          <p id={messageId} role="alert" className="text-[13px] text-danger">
            {shown}
          </p>
        )}
      </div>
    </div>
  );
}
