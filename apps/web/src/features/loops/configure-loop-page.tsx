import { baseLanguage } from '@pulsecheck/shared/i18n/languages';
import { DEFAULT_LOOP_SETTINGS, LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import type { LaunchLoopInput, LoopTemplate } from '@pulsecheck/shared/loops/schemas';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { StateCard } from '@/components/ui/state-card';
import { ApiError } from '@/lib/api-client';
import { newFormKey } from '@/lib/forms';
import { currentLocale, say, t } from '@/lib/i18n';
import { useActiveWorkspace } from '@/lib/workspaces';
import { useLoop, useLoopTemplate } from './api';
import { LoopLoadFailed } from './loop-header';
import { browserTimeZone, ConfigureLoopForm } from './loop-form';
import { questionOfKind } from './question-builder';

/** What the form starts from: a template's questions and defaults, or one empty scale question. */
export function loopFormDefaults(
  template: LoopTemplate | null,
  ids: { workspaceId: string; templateId: string | null; launchKey: string },
  timeZone: string,
): LaunchLoopInput {
  const settings = { ...DEFAULT_LOOP_SETTINGS, ...template?.defaults };
  return {
    title: template?.title ?? '',
    // The language the admin writes in: the template's, else their own.
    language: template?.language ?? baseLanguage(currentLocale()),
    description: template?.description ?? '',
    // The template's keys and ids are its own: the loop's questions are new ones.
    questions: template
      ? template.questions.map((q) => questionOfKind(q.kind, { ...q, id: undefined }))
      : [questionOfKind('scale')],
    audience: { kind: 'all' },
    cadence: settings.cadence,
    weekday: settings.weekday,
    time: settings.time,
    timeZone,
    roundDays: settings.roundDays,
    anonymous: settings.anonymous,
    minResponses: settings.minResponses,
    reminder: settings.reminder,
    followUpActions: false,
    start: 'now',
    workspaceId: ids.workspaceId,
    templateId: ids.templateId,
    launchKey: ids.launchKey,
  };
}

/** What the form starts from when editing: the loop as it is (its questions keep their ids, so their trend lines). */
export function loopEditDefaults(loop: LoopDetail): LaunchLoopInput {
  return {
    title: loop.title,
    language: loop.language,
    description: loop.description,
    questions: loop.questions.map((q) =>
      questionOfKind(q.kind, {
        id: q.id,
        text: q.text,
        translations: q.translations,
        ...(q.kind === 'scale' ? { lowLabel: q.lowLabel ?? '', highLabel: q.highLabel ?? '' } : {}),
      }),
    ),
    audience: loop.audience,
    cadence: loop.cadence,
    weekday: loop.weekday,
    time: loop.time,
    timeZone: loop.timeZone,
    roundDays: loop.roundDays,
    anonymous: loop.anonymous,
    minResponses: loop.minResponses,
    reminder: loop.reminder,
    followUpActions: loop.followUpActions,
    // Not sent when editing: the launch's own fields, kept so one schema checks both.
    start: 'now',
    workspaceId: loop.workspace.id,
    templateId: loop.templateId,
    launchKey: `edit-${loop.id}`,
  };
}

/**
 * Configure Loop: /admin/configure-loop/new a new loop, from scratch or (with ?template={id}) from a loop
 * template, where 'Use Template' lands; /admin/configure-loop/{loopId} edits that loop.
 */
export function ConfigureLoopPage() {
  const { loopId = 'new' } = useParams();
  return loopId === 'new' ? <NewLoop /> : <EditLoop key={loopId} loopId={loopId} />;
}

function NewLoop() {
  const [params] = useSearchParams();
  const templateId = params.get('template');
  const workspace = useActiveWorkspace();
  const template = useLoopTemplate(templateId);
  const [ownZone] = useState(browserTimeZone);
  const [launchKey] = useState(newFormKey);

  if (workspace.isPending || (templateId !== null && template.isPending)) {
    return <Spinner label={t('loopForm.loadingTemplate')} className="py-16" />;
  }
  if (workspace.isSuccess && !workspace.data) {
    return (
      <StateCard
        headingLevel={1}
        title={t('loopForm.title')}
        message={t('loopForm.selectWorkspace')}
        actions={
          <Button asChild>
            <Link to="/admin/workspaces">{t('loopForm.goToWorkspaces')}</Link>
          </Button>
        }
      />
    );
  }
  const content = template.data?.loop ?? null;
  if (workspace.isError || template.isError || !workspace.data || (templateId !== null && !content)) {
    const error = template.error ?? workspace.error;
    // A health-check template's id here is as unknown as a made-up one.
    const notFound = (error instanceof ApiError && error.status === 404) || (!error && !content);
    return (
      <StateCard
        tone="error"
        headingLevel={1}
        title={notFound ? t('loopForm.templateNotFound') : t('loopForm.templateLoadFailed')}
        message={notFound ? t('loopForm.templateNotFoundHint') : error?.message}
        actions={
          <Button asChild>
            <Link to="/admin/templates?type=loop">{t('loopForm.backToTemplates')}</Link>
          </Button>
        }
      />
    );
  }
  return (
    <ConfigureLoopForm
      key={templateId ?? 'new'}
      workspaceName={workspace.data.name}
      origin={content ? t('loopForm.originTemplate', { title: content.title }) : t('loopForm.originScratch')}
      defaults={loopFormDefaults(content, { workspaceId: workspace.data.id, templateId, launchKey }, ownZone)}
    />
  );
}

function EditLoop({ loopId }: { loopId: string }) {
  const loop = useLoop(loopId);
  if (loop.isPending) return <Spinner label={t('loopForm.loadingLoop')} className="py-16" />;
  if (loop.isError) {
    return (
      <LoopLoadFailed
        error={loop.error}
        title={t('loopForm.loopLoadFailed')}
        onRetry={() => void loop.refetch()}
      />
    );
  }
  const back = (
    <Button asChild>
      <Link to={LOOP_LINKS.completionStatus(loop.data.id)}>{t('loopForm.backToCompletionStatus')}</Link>
    </Button>
  );
  if (loop.data.status === 'completed') {
    return (
      <StateCard
        headingLevel={1}
        title={say(LOOP_MESSAGES.loopEnded)}
        message={t('loopForm.stoppedCannotChange')}
        actions={back}
      />
    );
  }
  if (!loop.data.canChange) {
    return (
      <StateCard
        headingLevel={1}
        title={t('loopForm.title')}
        message={t('loopForm.onlyAdminsOrCreator')}
        actions={back}
      />
    );
  }
  return (
    <ConfigureLoopForm
      workspaceName={loop.data.workspace.name}
      origin={t('loopForm.originEditing', { title: loop.data.title })}
      defaults={loopEditDefaults(loop.data)}
      editing={loop.data}
    />
  );
}
