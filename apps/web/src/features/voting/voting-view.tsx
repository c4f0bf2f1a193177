import { topics } from '@pulsecheck/shared/realtime/topics';
import { dotsUsed, VOTING_MESSAGES, type VotingState } from '@pulsecheck/shared/voting/schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Minus, Plus } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DistributionBar, DistributionLegend } from '@/components/ui/distribution-bar';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { apiGet, apiPut } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { say, t } from '@/lib/i18n';
import { useLiveEvents } from '@/lib/live-events';

const enc = encodeURIComponent;
const votingKey = (id: string) => ['voting', id] as const;
const votingQuery = (id: string) =>
  queryOptions({
    queryKey: votingKey(id),
    queryFn: ({ signal }) => apiGet<VotingState>(`/health-checks/${enc(id)}/votes`, signal),
  });

const SAVE_DELAY_MS = 400;
type Allocation = Record<string, number>;

/**
 * Dot voting (PRODUCT-DECISIONS 2): `votesPerPerson` dots on the components, listed in the prioritized order of
 * the results with their distribution; each change saves the whole allocation; a live count of who has voted.
 */
export function VotingView({ healthCheckId }: { healthCheckId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(votingQuery(healthCheckId));
  const [draft, setDraft] = useState<Allocation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useLiveEvents([topics.healthCheck(healthCheckId)], () => {
    void queryClient.invalidateQueries({ queryKey: votingKey(healthCheckId) });
  });

  const save = useMutation({
    mutationFn: (allocation: Allocation) =>
      apiPut<VotingState>(`/health-checks/${enc(healthCheckId)}/votes`, { allocation }),
    onSuccess: (state, sent) => {
      setError(null);
      queryClient.setQueryData(votingKey(healthCheckId), state);
      // Keep the draft if the person changed it again while this request was under way.
      setDraft((current) => (current && sameAllocation(current, sent) ? null : current));
    },
    onError: (e) => {
      setError(e.message);
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: votingKey(healthCheckId) });
    },
  });

  useEffect(() => () => clearTimeout(timer.current), []);

  if (query.isPending) return <Spinner label={t('voting.loading')} className="min-h-screen" />;
  if (query.isError) {
    return (
      <Frame>
        <Card className="mx-auto max-w-lg" role="alert">
          <CardContent className="p-6 text-center text-sm text-red-700">{query.error.message}</CardContent>
        </Card>
      </Frame>
    );
  }
  const state = query.data;
  const allocation = draft ?? state.allocation;
  const used = dotsUsed(allocation);
  const left = state.votesPerPerson - used;
  const open = state.phase === 'vote' && state.eligible;

  const change = (componentId: string, delta: number) => {
    const next = { ...allocation, [componentId]: Math.max(0, (allocation[componentId] ?? 0) + delta) };
    if (next[componentId] === 0) delete next[componentId];
    if (dotsUsed(next) > state.votesPerPerson) return;
    setDraft(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => save.mutate(next), SAVE_DELAY_MS);
  };

  const percent = state.tally.eligible ? Math.round((state.tally.voted / state.tally.eligible) * 100) : 0;
  return (
    <Frame>
      <h1 className="text-2xl font-bold break-words text-slate-900">{state.title}</h1>
      <Card>
        <CardHeader>
          <CardTitle>{t('voting.title')}</CardTitle>
          <CardDescription>
            {open
              ? t('voting.placeDots', { count: state.votesPerPerson })
              : state.phase === 'vote'
                ? say(VOTING_MESSAGES.ratingClosed)
                : state.phase === 'collect'
                  ? t('voting.opensLater')
                  : t('voting.ended')}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {open && (
            <p className="text-sm font-medium text-slate-900" aria-live="polite" data-testid="dots-left">
              {t('voting.dotsLeft', { left, total: state.votesPerPerson })}
              <span className="ms-2 text-xs font-normal text-slate-600">
                {save.isPending || draft ? t('voting.saving') : used > 0 ? t('common.saved') : ''}
              </span>
            </p>
          )}
          <div>
            <p className="mb-1 text-sm text-slate-700" data-testid="vote-tally">
              {t('voting.tally', { voted: state.tally.voted, eligible: state.tally.eligible })}
            </p>
            <ProgressBar value={percent} label={t('voting.votedBar')} />
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          {state.phase !== 'vote' && state.phase !== 'collect' && (
            <Button asChild variant="secondary" className="self-start">
              <Link to={`/health-check/${healthCheckId}/results`}>{t('voting.viewResults')}</Link>
            </Button>
          )}
        </CardContent>
      </Card>
      {state.components.some((c) => c.counts) && <DistributionLegend />}
      <ol className="flex flex-col gap-2" aria-label={t('voting.areas')}>
        {state.components.map((component) => {
          const dots = allocation[component.id] ?? 0;
          return (
            <li
              key={component.id}
              data-testid="vote-row"
              className={cn(
                'flex flex-col gap-3 rounded-xl border bg-white p-4 sm:flex-row sm:items-center',
                dots > 0 ? 'border-brand-300 ring-1 ring-brand-200' : 'border-slate-200',
              )}
            >
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-slate-900">{component.title}</p>
                <p className="text-xs text-slate-600">{component.category}</p>
                {component.counts && <DistributionBar counts={component.counts} className="mt-2 max-w-md" />}
              </div>
              {open && (
                <div className="flex items-center gap-2">
                  <Button
                    variant="secondary"
                    size="icon"
                    aria-label={t('voting.removeDot', { title: component.title })}
                    disabled={dots === 0}
                    onClick={() => change(component.id, -1)}
                  >
                    <Minus aria-hidden="true" />
                  </Button>
                  <span className="w-16 text-center text-sm font-semibold" aria-live="polite">
                    {t('voting.dots', { count: dots })}
                  </span>
                  <Button
                    variant="secondary"
                    size="icon"
                    aria-label={t('voting.addDot', { title: component.title })}
                    disabled={left <= 0}
                    onClick={() => change(component.id, 1)}
                  >
                    <Plus aria-hidden="true" />
                  </Button>
                </div>
              )}
              {!open && dots > 0 && (
                <span className="flex items-center gap-1 text-sm text-brand-700">
                  <CheckCircle2 className="size-4" aria-hidden="true" /> {t('voting.dots', { count: dots })}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </Frame>
  );
}

/**
 * The voting view's content on the participation route; the participant layout (app/layouts) around it has the
 * header with the logo, the notification bell and the `main` landmark.
 */
function Frame({ children }: { children: ReactNode }) {
  return <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">{children}</div>;
}

function sameAllocation(a: Allocation, b: Allocation) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? 0) === (b[k] ?? 0));
}
