import { topics } from '@pulsecheck/shared/realtime/topics';
import type { Participation, Responses } from '@pulsecheck/shared/participation/contract';
import {
  answeredPercent,
  PARTICIPATION_MESSAGES as M,
  RATING_OPTIONS,
  unansweredCount,
  type ParticipationRating,
} from '@pulsecheck/shared/participation/rules';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2, ChevronLeft, ChevronRight, Eye, Loader2, Send } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Textarea } from '@/components/ui/input';
import { toast } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { formats, say, t } from '@/lib/i18n';
import { useLiveEvents } from '@/lib/live-events';
import { participationKeys, submitResponses } from './api';
import { ParticipationShell } from './participation-shell';
import { RatingOptions } from './rating-options';
import { TeamProgressCard } from './team-progress';
import { clearDraft, useAutosave, type SaveState } from './use-autosave';

const REQUIRED_MESSAGE_MS = 3000;

/** Asked only in a check that follows up earlier actions: its code loads when there is one (decision 0027). */
const FollowUpQuestion = lazy(() =>
  import('@/components/follow-ups/follow-up-question').then((m) => ({ default: m.FollowUpQuestion })),
);

const emptyResponses = (): Responses => ({ votes: {}, comments: {}, last_component_index: 0 });
const hasContent = (r: Responses | null | undefined) =>
  Boolean(r && (Object.keys(r.votes).length > 0 || Object.values(r.comments).some((c) => c.trim())));

function isTyping(target: EventTarget | null) {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['TEXTAREA', 'INPUT', 'SELECT'].includes(target.tagName))
  );
}

/** The rating steps: one component at a time, keys 1 to 4, Next and Back, autosave, and submit at the end. */
export function RatingFlow({
  data,
  userId,
  draft,
  teamProgress,
}: {
  data: Participation;
  userId: string;
  /** The unsaved copy kept in this browser, if any (`readDraft`). */
  draft: Responses | null;
  teamProgress: Participation['teamProgress'];
}) {
  const healthCheckId = data.healthCheck.id;
  const preview = data.preview;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const components = data.components;
  const componentIds = components.map((c) => c.id);
  const known = new Set(componentIds);

  // Restore: an unsaved local copy wins over the server's (it is newer), then the server's interim responses.
  const [initial] = useState(() => {
    const local = preview ? null : draft;
    const server = data.participant?.responses ?? null;
    const source = hasContent(local) ? local : hasContent(server) ? server : null;
    const clean = (record: Record<string, string>) =>
      Object.fromEntries(Object.entries(record).filter(([id]) => known.has(id)));
    const questions = new Set(data.followUps.map((f) => f.id));
    const keepQuestions = <T extends string>(record: Record<string, T> | undefined) =>
      Object.fromEntries(Object.entries(record ?? {}).filter(([id]) => questions.has(id)));
    const responses = source
      ? {
          votes: clean(source.votes) as Responses['votes'],
          comments: clean(source.comments),
          last_component_index: Math.min(source.last_component_index, components.length - 1),
          follow_ups: keepQuestions(source.follow_ups),
          follow_up_comments: keepQuestions(source.follow_up_comments),
        }
      : emptyResponses();
    return { responses, restored: Boolean(source), fromLocal: source !== null && source === local };
  });
  const [responses, setResponses] = useState<Responses>(initial.responses);
  const [index, setIndex] = useState(initial.responses.last_component_index);
  const [openComments, setOpenComments] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(Object.entries(initial.responses.comments).map(([id, text]) => [id, text.length > 0])),
  );
  const [required, setRequired] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const requiredTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const titleId = useId();

  const autosave = useAutosave({
    healthCheckId,
    userId,
    enabled: !preview,
    onClosed: () => {
      void queryClient.invalidateQueries({ queryKey: participationKeys.check(healthCheckId, false) });
    },
  });

  const { schedule } = autosave;
  const restoredOnce = useRef(false);
  useEffect(() => {
    if (restoredOnce.current) return;
    restoredOnce.current = true;
    if (initial.restored) toast.success(say(M.restored), { duration: 3000 });
    // A local copy the server never got is sent now.
    if (initial.fromLocal) schedule(initial.responses);
  }, [initial, schedule]);

  useLiveEvents(
    [topics.healthCheck(healthCheckId)],
    () => void queryClient.invalidateQueries({ queryKey: participationKeys.progress(healthCheckId) }),
  );

  const current = useRef(responses);
  const update = (change: (previous: Responses) => Responses) => {
    const changed = change(current.current);
    current.current = changed;
    setResponses(changed);
    autosave.schedule(changed);
  };

  const component = components[index];
  const rating = component ? responses.votes[component.id] : undefined;
  const isLast = index === components.length - 1;
  const percent = answeredPercent(componentIds, responses.votes);

  const showRequired = () => {
    setRequired(true);
    clearTimeout(requiredTimer.current);
    requiredTimer.current = setTimeout(() => setRequired(false), REQUIRED_MESSAGE_MS);
  };
  useEffect(() => () => clearTimeout(requiredTimer.current), []);

  const goTo = (target: number) => {
    const bounded = Math.max(0, Math.min(components.length - 1, target));
    setIndex(bounded);
    update((previous) => ({ ...previous, last_component_index: bounded }));
  };

  const choose = (value: ParticipationRating) => {
    if (!component) return;
    setRequired(false);
    update((previous) => ({ ...previous, votes: { ...previous.votes, [component.id]: value } }));
  };

  const next = () => {
    if (!rating) return showRequired();
    if (!isLast) goTo(index + 1);
  };

  const submit = async () => {
    if (!rating) return showRequired();
    const missing = unansweredCount(componentIds, responses.votes);
    if (missing > 0) {
      toast.error(t(M.unanswered, { count: missing }));
      return;
    }
    if (preview) {
      toast.info(say(M.previewNotSaved));
      return;
    }
    setSubmitting(true);
    try {
      const result = await submitResponses(healthCheckId, responses);
      autosave.stop();
      clearDraft(userId, healthCheckId);
      await queryClient.invalidateQueries({ queryKey: participationKeys.all });
      void navigate(result.redirectTo, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'already_submitted') {
        autosave.stop();
        clearDraft(userId, healthCheckId);
        toast.error(say(M.alreadySubmitted));
        void navigate(`/health-check/${healthCheckId}/complete`, { replace: true });
        return;
      }
      toast.error(error instanceof ApiError && error.status < 500 ? error.message : say(M.submitFailed));
      setSubmitting(false);
    }
  };

  // Keys 1 to 4 choose a rating; left and right arrows move between steps (outside text fields and the group).
  const onKey = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target))
      return;
    const option = /^[1-4]$/.test(event.key) ? RATING_OPTIONS[Number(event.key) - 1] : undefined;
    if (option) {
      event.preventDefault();
      choose(option.value);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      next();
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      goTo(index - 1);
    }
  };
  const keyHandler = useRef(onKey);
  useEffect(() => {
    keyHandler.current = onKey;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keyHandler.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  if (!component) return null;
  const commentOpen = openComments[component.id] ?? false;
  const comment = responses.comments[component.id] ?? '';
  const commentId = `comment-${component.id}`;

  return (
    <ParticipationShell
      title={data.healthCheck.title}
      description={data.healthCheck.description}
      branding={data.branding}
    >
      {preview && (
        <p
          role="status"
          className="mb-4 flex items-center gap-2 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-brand-800"
        >
          <Eye className="size-4" aria-hidden="true" /> {t('participation.flow.preview')}
        </p>
      )}
      <div className="mb-4 hidden items-center justify-between gap-4 md:flex">
        <p className="text-sm text-slate-700">
          {t('participation.flow.step', { step: index + 1, total: components.length })}
        </p>
        {!preview && <SaveIndicator state={autosave.state} />}
      </div>
      <ProgressBar
        value={percent}
        label={t('participation.flow.progress')}
        className="mb-6 hidden md:block"
      />

      <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
        <article
          aria-labelledby={titleId}
          className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
        >
          {component.category && (
            <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">
              {component.category}
            </p>
          )}
          <h2 id={titleId} className="mt-2 text-2xl font-bold text-slate-900">
            {component.title}
          </h2>
          {component.description && <p className="mt-3 text-slate-700">{component.description}</p>}
          {component.examples.length > 0 && (
            <div className="mt-4 rounded-lg bg-slate-50 p-4">
              <h3 className="text-sm font-semibold text-slate-800">{t('participation.flow.examples')}</h3>
              <ul className="mt-2 list-disc space-y-1 ps-5 text-sm text-slate-700">
                {component.examples.map((example) => (
                  <li key={example}>{example}</li>
                ))}
              </ul>
            </div>
          )}

          <div className="mt-6">
            <RatingOptions value={rating} onChange={choose} labelledBy={titleId} />
            <p aria-live="assertive" className="mt-3 min-h-5 text-sm font-medium text-red-700">
              {required ? say(M.selectRating) : ''}
            </p>
          </div>

          {data.healthCheck.settings.enableComments && (
            <div className="mt-4">
              {commentOpen ? (
                <div className="space-y-2">
                  <label htmlFor={commentId} className="text-sm font-medium text-slate-800">
                    {t('participation.flow.comment')}
                  </label>
                  <Textarea
                    id={commentId}
                    value={comment}
                    maxLength={2000}
                    onChange={(event) => {
                      const text = event.target.value;
                      update((previous) => ({
                        ...previous,
                        comments: { ...previous.comments, [component.id]: text },
                      }));
                    }}
                    placeholder={t('participation.flow.commentPlaceholder')}
                  />
                  <div className="flex items-center justify-between text-xs text-slate-600">
                    <span>
                      {t('participation.flow.commentLength', { length: comment.length, max: 2000 })}
                    </span>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => {
                        setOpenComments((open) => ({ ...open, [component.id]: false }));
                        update((previous) => {
                          const { [component.id]: _removed, ...rest } = previous.comments;
                          return { ...previous, comments: rest };
                        });
                      }}
                    >
                      {t('common.cancel')}
                    </Button>
                  </div>
                </div>
              ) : (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setOpenComments((open) => ({ ...open, [component.id]: true }))}
                >
                  {t('participation.flow.addComment')}
                </Button>
              )}
            </div>
          )}

          <Suspense fallback={null}>
            {data.followUps
              .filter((followUp) => followUp.componentId === component.id)
              .map((followUp) => (
                <FollowUpQuestion
                  key={followUp.id}
                  followUp={followUp}
                  answer={responses.follow_ups?.[followUp.id]}
                  comment={responses.follow_up_comments?.[followUp.id] ?? ''}
                  commentsOn={data.healthCheck.settings.enableComments}
                  onAnswer={(answer) =>
                    update((previous) => ({
                      ...previous,
                      follow_ups: { ...previous.follow_ups, [followUp.id]: answer },
                    }))
                  }
                  onComment={(text) =>
                    update((previous) => ({
                      ...previous,
                      follow_up_comments: { ...previous.follow_up_comments, [followUp.id]: text },
                    }))
                  }
                />
              ))}
          </Suspense>

          <div className="mt-8 flex items-center justify-between gap-3 border-t border-slate-200 pt-6">
            <Button variant="secondary" onClick={() => goTo(index - 1)} disabled={index === 0}>
              <ChevronLeft className="rtl:rotate-180" aria-hidden="true" /> {t('common.previous')}
            </Button>
            {isLast ? (
              <Button
                onClick={() => void submit()}
                disabled={submitting}
                aria-disabled={!rating || undefined}
                className={!rating ? 'opacity-50' : undefined}
              >
                {submitting ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <Send aria-hidden="true" />
                )}
                {submitting ? t('participation.flow.submitting') : t('participation.flow.submit')}
              </Button>
            ) : (
              <Button
                onClick={next}
                aria-disabled={!rating || undefined}
                className={!rating ? 'opacity-50' : undefined}
              >
                {t('common.next')} <ChevronRight className="rtl:rotate-180" aria-hidden="true" />
              </Button>
            )}
          </div>
        </article>

        <aside className="space-y-4">
          <TeamProgressCard progress={teamProgress} />
          <nav
            aria-label={t('participation.flow.components')}
            className="hidden rounded-xl border border-slate-200 bg-white p-4 lg:block"
          >
            <h2 className="text-sm font-semibold text-slate-900">{t('participation.flow.yourAnswers')}</h2>
            <p className="mt-1 text-xs text-slate-600">
              {t('participation.flow.rated', {
                rated: componentIds.length - unansweredCount(componentIds, responses.votes),
                total: components.length,
              })}
            </p>
          </nav>
        </aside>
      </div>

      {/* Phones: step and percentage stay in view (spec section 2, under 768 px). */}
      <div className="fixed inset-x-0 bottom-0 z-10 border-t border-slate-200 bg-white px-4 py-3 shadow-lg md:hidden">
        <div className="flex items-center justify-between text-sm text-slate-800">
          <span>{t('participation.flow.step', { step: index + 1, total: components.length })}</span>
          {!preview && <SaveIndicator state={autosave.state} />}
          <span>{formats().percent(percent / 100)}</span>
        </div>
        <ProgressBar value={percent} label={t('participation.flow.progressMobile')} className="mt-2" />
      </div>
    </ParticipationShell>
  );
}

function SaveIndicator({ state }: { state: SaveState }) {
  return (
    <span role="status" aria-live="polite" className="inline-flex min-w-20 items-center gap-1.5 text-sm">
      {state === 'saving' && (
        <>
          <Loader2 className="size-4 animate-spin text-slate-600" aria-hidden="true" />
          <span className="text-slate-700">{t('participation.flow.saving')}</span>
        </>
      )}
      {state === 'saved' && (
        <>
          <CheckCircle2 className="size-4 text-green-700" aria-hidden="true" />
          <span className="text-green-800">{t('common.saved')}</span>
        </>
      )}
      {state === 'error' && (
        <>
          <AlertCircle className="size-4 text-red-700" aria-hidden="true" />
          <span className="text-red-800">{t('participation.flow.saveFailed')}</span>
        </>
      )}
    </span>
  );
}
