import { NotificationBell } from '@/features/notifications/bell';
import { ResultsPage } from '@/features/results/results-page';

/** The results screen, with the notification bell in its header (composed here: features do not import each other). */
export function ResultsScreen() {
  return <ResultsPage headerActions={<NotificationBell />} />;
}
