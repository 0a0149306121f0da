/**
 * Small per-resource additions to the generic screens, by resource name: panels of the detail
 * screen, and the detail a list row unfolds to. A resource that needs more than the declaration
 * gives adds one line here, not a copy of the screen.
 */
import type { ComponentType } from 'react';
import { AuditChanges } from './audit-changes';
import { LastOrder } from './last-order';
import { MailPreview } from './mail-preview';
import type { DetailExtensionProps, RowDetailProps } from './types';

export type { DetailExtensionProps, RowDetailProps } from './types';

export const DETAIL_EXTENSIONS: Record<string, readonly ComponentType<DetailExtensionProps>[]> = {
  client: [LastOrder],
  mailtemplate: [MailPreview],
};

/** What a list row unfolds to (a toggle per row): the audit log's before → after. */
export const ROW_DETAILS: Record<string, ComponentType<RowDetailProps>> = {
  log: AuditChanges,
};
