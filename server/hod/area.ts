/**
 * The hod area as the application is wired from it (server/areas.ts): its calls and the
 * policies of the resources it rules.
 */
import type { ServerArea } from '../resources';
import { hodPausePolicy } from './hod-pause-policy';
import { hodReportPolicy } from './hod-report-policy';
import { hodPlugin } from './plugin';

export const hodArea = {
  plugin: hodPlugin,
  policies: { hodpause: hodPausePolicy, hodreport: hodReportPolicy },
} satisfies ServerArea;
