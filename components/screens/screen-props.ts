import type { Match } from '@/lib/routes';

/** Props every screen module of kind home/custom receives (components/screens/registry.ts loads them). */
export interface ScreenProps {
  match: Match;
}
