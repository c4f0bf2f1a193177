import { Activity } from 'lucide-react';
import { Link } from 'react-router';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="inline-flex items-center gap-2 text-lg font-bold text-slate-900">
      <span className="flex size-8 items-center justify-center rounded-lg bg-brand-600 text-white">
        <Activity className="size-5" aria-hidden="true" />
      </span>
      Pulsecheck
    </Link>
  );
}
