import { zodResolver } from '@hookform/resolvers/zod';
import {
  CADENCE_LABELS,
  CADENCES,
  DEFAULT_LOOP_SETTINGS,
  LOOP_LIMITS,
  LOOP_MESSAGES,
  MIN_ANONYMOUS_RESPONSES,
  WEEKDAY_LABELS,
  WEEKDAYS,
} from '@pulsecheck/shared/loops/rules';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/contract';
import {
  launchLoopSchema,
  type LaunchLoop,
  type LaunchLoopInput,
  type LoopTemplate,
} from '@pulsecheck/shared/loops/schemas';
import type { Workspace } from '@pulsecheck/shared/workspaces/schemas';
import { ArrowLeft, Rocket } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { IconLink } from '@/components/ui/icon-link';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { StateCard } from '@/components/ui/state-card';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors, newFormKey } from '@/lib/forms';
import { useActiveWorkspace } from '@/lib/workspaces';
import { useLaunchLoop, useLoopTemplate, useWorkspaceMembers } from './api';
import { AudienceField } from './audience-field';
import { QuestionBuilder, questionOfKind, type LoopForm } from './question-builder';
import { firstRoundPreview } from './schedule-preview';

/** The browser's time zone, the form's default (there is no workspace time zone yet, decision 0009). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every zone the browser knows, the browser's own included (some list no 'UTC'). */
function timeZones(own: string): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return listed.includes(own) ? listed : [own, ...listed];
}

/** What the form starts from: a template's questions and defaults, or one empty scale question. */
export function loopFormDefaults(
  template: LoopTemplate | null,
  ids: { workspaceId: string; templateId: string | null; launchKey: string },
  timeZone: string,
): LaunchLoopInput {
  const settings = { ...DEFAULT_LOOP_SETTINGS, ...template?.defaults };
  return {
    title: template?.title ?? '',
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
    start: 'now',
    workspaceId: ids.workspaceId,
    templateId: ids.templateId,
    launchKey: ids.launchKey,
  };
}

/** /admin/configure-loop/{templateId} ('new' starts from scratch); loop templates' 'Use Template' lands here. */
export function ConfigureLoopPage() {
  const { templateId = 'new' } = useParams();
  const fromScratch = templateId === 'new';
  const workspace = useActiveWorkspace();
  const template = useLoopTemplate(fromScratch ? null : templateId);

  if (workspace.isPending || (!fromScratch && template.isPending)) {
    return <Spinner label="Loading loop template..." className="py-16" />;
  }
  if (workspace.isSuccess && !workspace.data) {
    return (
      <StateCard
        headingLevel={1}
        title="Configure Loop"
        message="Please select a workspace before configuring a loop"
        actions={
          <Button asChild>
            <Link to="/admin/workspaces">Go to Workspaces</Link>
          </Button>
        }
      />
    );
  }
  const content = template.data?.loop ?? null;
  if (workspace.isError || template.isError || !workspace.data || (!fromScratch && !content)) {
    const error = template.error ?? workspace.error;
    // A health-check template's id here is as unknown as a made-up one.
    const notFound = (error instanceof ApiError && error.status === 404) || (!error && !content);
    return (
      <StateCard
        tone="error"
        headingLevel={1}
        title={notFound ? 'Template not found' : 'Failed to load the template'}
        message={notFound ? 'This template does not exist or belongs to another workspace.' : error?.message}
        actions={
          <Button asChild>
            <Link to="/admin/templates?type=loop">Back to Templates</Link>
          </Button>
        }
      />
    );
  }
  return (
    <ConfigureLoopForm
      key={fromScratch ? 'new' : templateId}
      workspace={workspace.data}
      template={content}
      templateId={fromScratch ? null : templateId}
    />
  );
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

function ConfigureLoopForm({
  workspace,
  template,
  templateId,
}: {
  workspace: Workspace;
  template: LoopTemplate | null;
  templateId: string | null;
}) {
  const navigate = useNavigate();
  const launch = useLaunchLoop();
  const [ownZone] = useState(browserTimeZone);
  const [zones] = useState(() => timeZones(ownZone));
  const [defaults] = useState(() =>
    loopFormDefaults(template, { workspaceId: workspace.id, templateId, launchKey: newFormKey() }, ownZone),
  );
  const form: LoopForm = useForm<LaunchLoopInput, unknown, LaunchLoop>({
    resolver: zodResolver(launchLoopSchema),
    defaultValues: defaults,
  });
  const { control, register, formState } = form;
  const errors = formState.errors;
  const [banner, setBanner] = useState<string | null>(null);
  const members = useWorkspaceMembers(workspace.id);
  const [cadence, weekday, time, timeZone, start, roundDays, anonymous] = useWatch({
    control,
    name: ['cadence', 'weekday', 'time', 'timeZone', 'start', 'roundDays', 'anonymous'],
  });
  const preview = firstRoundPreview({ cadence, weekday, time, timeZone, start, roundDays }, new Date());

  const submit = form.handleSubmit((values) => {
    setBanner(null);
    launch.mutate(values, {
      onSuccess: (result) => {
        toast.success('Loop launched', { duration: 3000 });
        void navigate(LOOP_LINKS.completionStatus(result.id));
      },
      onError: (error) =>
        setBanner(applyServerErrors(error, form, 'The loop could not be launched. Please try again.')),
    });
  });

  return (
    <form className="flex flex-col gap-6" onSubmit={(event) => void submit(event)} noValidate>
      <div>
        <IconLink to="/admin/templates?type=loop" icon={ArrowLeft}>
          Back to Templates
        </IconLink>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">Configure Loop</h1>
        <p className="mt-1 text-sm text-slate-600">
          Workspace: <span className="font-medium text-slate-800">{workspace.name}</span>
          {template ? ` · Template: ${template.title}` : ' · From scratch'}
        </p>
      </div>

      {banner && (
        <Notice tone="error" onDismiss={() => setBanner(null)}>
          {banner}
        </Notice>
      )}

      <Section title="Loop">
        <FormField label="Title" error={errors.title?.message}>
          <Input maxLength={LOOP_LIMITS.titleMax} {...register('title')} />
        </FormField>
        <FormField label="Description" error={errors.description?.message}>
          <Textarea maxLength={LOOP_LIMITS.descriptionMax} {...register('description')} />
        </FormField>
      </Section>

      <Section
        title="Questions"
        description={`1 to ${LOOP_LIMITS.questionsMax} short questions, asked in this order every round.`}
      >
        <QuestionBuilder form={form} />
      </Section>

      <Section title="Who is asked">
        <Controller
          control={control}
          name="audience"
          render={({ field, fieldState }) => (
            <AudienceField
              value={field.value}
              onChange={field.onChange}
              members={{
                pending: members.isPending,
                error: members.isError ? members.error.message : null,
                list: members.data ?? [],
              }}
              error={
                fieldState.error?.message ??
                (errors.audience as { memberIds?: { message?: string } } | undefined)?.memberIds?.message
              }
            />
          )}
        />
      </Section>

      <Section title="Schedule" description={`Times are in ${timeZone || ownZone}.`}>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Cadence" error={errors.cadence?.message}>
            <Select {...register('cadence')}>
              {CADENCES.map((value) => (
                <option key={value} value={value}>
                  {CADENCE_LABELS[value]}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Weekday" error={errors.weekday?.message}>
            <Select {...register('weekday')}>
              {WEEKDAYS.map((value) => (
                <option key={value} value={value}>
                  {WEEKDAY_LABELS[value]}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Time" error={errors.time?.message} hint={`In ${timeZone || ownZone}.`}>
            <Input type="time" {...register('time')} />
          </FormField>
          <FormField
            label="Time zone"
            error={errors.timeZone?.message}
            hint={timeZone === ownZone ? 'Your browser’s time zone.' : undefined}
          >
            <Select {...register('timeZone')}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField
            label="Round length (days)"
            error={errors.roundDays?.message}
            hint={`How long each round stays open: ${LOOP_LIMITS.roundDaysMin} to ${LOOP_LIMITS.roundDaysMax} days.`}
          >
            <Input
              type="number"
              inputMode="numeric"
              min={LOOP_LIMITS.roundDaysMin}
              max={LOOP_LIMITS.roundDaysMax}
              {...register('roundDays', { valueAsNumber: true })}
            />
          </FormField>
        </div>
        <SwitchRow
          form={form}
          name="reminder"
          label="Reminder"
          hint="Reminds those who have not answered before the round closes."
        />
      </Section>

      <Section title="Privacy">
        <SwitchRow
          form={form}
          name="anonymous"
          label="Anonymous answers"
          hint="Answers are stored without who gave them; results never show names."
        />
        <FormField
          label="Minimum responses"
          error={errors.minResponses?.message}
          hint={`Results of a round show only with at least this many answers${
            anonymous ? ` (at least ${MIN_ANONYMOUS_RESPONSES} when anonymous)` : ''
          }.`}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={anonymous ? MIN_ANONYMOUS_RESPONSES : 1}
            max={LOOP_LIMITS.minResponsesMax}
            {...register('minResponses', { valueAsNumber: true })}
          />
        </FormField>
      </Section>

      <Section title="First round">
        <Controller
          control={control}
          name="start"
          render={({ field, fieldState }) => (
            <StartField value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        {preview?.kind === 'plan' && (
          <dl
            className="grid gap-1 text-sm text-slate-700 sm:grid-cols-[auto_1fr] sm:gap-x-4"
            data-testid="first-round"
          >
            <dt className="font-medium text-slate-900">First round opens</dt>
            <dd>{preview.opens}</dd>
            {preview.closes && (
              <>
                <dt className="font-medium text-slate-900">It closes</dt>
                <dd>{preview.closes}</dd>
              </>
            )}
            <dt className="font-medium text-slate-900">Next round opens</dt>
            <dd>{preview.next}</dd>
          </dl>
        )}
        {preview?.kind === 'problem' && !errors.start && <Notice tone="warning">{preview.message}</Notice>}
      </Section>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={launch.isPending}>
          <Rocket aria-hidden="true" />
          {launch.isPending ? 'Launching...' : LOOP_MESSAGES.launch}
        </Button>
      </div>
    </form>
  );
}

function SwitchRow({
  form,
  name,
  label,
  hint,
}: {
  form: LoopForm;
  name: 'anonymous' | 'reminder';
  label: string;
  hint: string;
}) {
  const id = `loop-${name}`;
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      </div>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Switch
            ref={field.ref}
            id={id}
            aria-describedby={`${id}-hint`}
            checked={field.value === true}
            onCheckedChange={field.onChange}
          />
        )}
      />
    </div>
  );
}

/** 'Start now' or a first round date; the date is kept while 'Start now' is chosen. */
function StartField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const [date, setDate] = useState(value === 'now' ? '' : value);
  const byDate = value !== 'now';
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={error ? 'loop-start-error' : undefined}>
      <legend className="text-sm font-medium text-slate-800">When the first round opens</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="loop-start" checked={!byDate} onChange={() => onChange('now')} />
        Start now
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="loop-start" checked={byDate} onChange={() => onChange(date)} />
        On the first scheduled day from a date
      </label>
      {byDate && (
        <div className="flex max-w-xs flex-col gap-1.5">
          <Label htmlFor="loop-start-date">First round date</Label>
          <Input
            id="loop-start-date"
            type="date"
            value={date}
            aria-invalid={error ? true : undefined}
            onChange={(event) => {
              setDate(event.target.value);
              onChange(event.target.value);
            }}
          />
        </div>
      )}
      {error && (
        <p id="loop-start-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
