import { MyLoopRounds } from '@/features/loops/my-loop-rounds';
import { MyDashboardPage } from '@/features/participation/my-dashboard-page';

/** /dashboard: the member's open loop rounds first, then their health checks (features do not import each other). */
export function MyDashboardScreen() {
  return <MyDashboardPage before={<MyLoopRounds />} />;
}
