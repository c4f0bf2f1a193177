import { LOOP_LINKS } from '@pulsecheck/shared/loops/contract';
import type { LoopStatus } from '@pulsecheck/shared/loops/rules';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { IconLink } from '@/components/ui/icon-link';
import { cn } from '@/lib/cn';

export const LOOP_STATUS_BADGE = {
  active: { label: 'Active', tone: 'blue' },
  paused: { label: 'Paused', tone: 'yellow' },
  completed: { label: 'Completed', tone: 'green' },
} as const satisfies Record<LoopStatus, { label: string; tone: string }>;

/** The top of every loop screen: back to the dashboard, title, status, and the three screens of the loop. */
export function LoopHeader({
  loop,
  detail,
}: {
  loop: { id: string; title: string; status: LoopStatus };
  detail?: ReactNode;
}) {
  const badge = LOOP_STATUS_BADGE[loop.status];
  const tabs = [
    { to: LOOP_LINKS.completionStatus(loop.id), label: 'Completion Status' },
    { to: LOOP_LINKS.results(loop.id), label: 'Results' },
    { to: LOOP_LINKS.insights(loop.id), label: 'Insights' },
  ];
  return (
    <div className="flex flex-col gap-3">
      <IconLink to="/admin/dashboard?filter=loops" icon={ArrowLeft}>
        Back to Dashboard
      </IconLink>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-words text-slate-900">{loop.title}</h1>
        <Badge tone={badge.tone}>{badge.label}</Badge>
      </div>
      {detail && <div className="text-sm text-slate-600">{detail}</div>}
      <nav aria-label="Loop screens">
        <ul className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1 text-sm font-medium">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                className={({ isActive }) =>
                  cn(
                    'block rounded-md px-3 py-1.5',
                    isActive ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700 hover:text-slate-900',
                  )
                }
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
