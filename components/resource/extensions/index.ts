/**
 * Small per-resource additions to the generic detail screen, by resource name. A resource that
 * needs more than the declaration gives adds one line here, not a copy of the screen.
 */
import type { ComponentType } from 'react';
import { LastOrder } from './last-order';
import { MailPreview } from './mail-preview';
import type { DetailExtensionProps } from './types';

export type { DetailExtensionProps } from './types';

export const DETAIL_EXTENSIONS: Record<string, readonly ComponentType<DetailExtensionProps>[]> = {
  client: [LastOrder],
  mailtemplate: [MailPreview],
};
