import { FOLLOW_UP_MESSAGES } from '@pulsecheck/shared/action-items/follow-up';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CADENCE_LABELS,
  CADENCES,
  LOOP_LIMITS,
  LOOP_MESSAGES,
  MIN_ANONYMOUS_RESPONSES,
  WEEKDAY_LABELS,
  WEEKDAYS,
} from '@pulsecheck/shared/loops/rules';
import type { LoopDetail, LoopQuestionOut } from '@pulsecheck/shared/loops/contract';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import {
  launchLoopSchema,
  type LaunchLoop,
  type LaunchLoopInput,
  type RoundAnswers,
} from '@pulsecheck/shared/loops/schemas';
import { MAIL_MESSAGES } from '@pulsecheck/shared/mail/delivery';
import { ArrowLeft, LayoutTemplate, Rocket } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button, SubmitButton } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { IconLink } from '@/components/ui/icon-link';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { TOAST, toast } from '@/components/ui/toaster';
import { applyServerErrors } from '@/lib/forms';
import { useSession } from '@/lib/session';
import { useEditLoop, useLaunchLoop, useSaveLoopTemplate, useWorkspaceMembers } from './api';
import { QuestionFields } from './answer-form';
import { AudienceField } from './audience-field';
import { QuestionBuilder, type LoopForm } from './question-builder';
import { firstRoundPreview } from './schedule-preview';

/**
 * The Configure Loop form, for a new loop ('Launch Loop') or one being edited ('Save Changes'), both checked with
 * `launchLoopSchema` so every message is the shared one; 'Save as Template' keeps its questions and settings.
 */
/** Said where round e-mails would go out while the server sends none (MAIL_DISABLED). */
const MAIL_OFF = `${MAIL_MESSAGES.offNotice} Members answer each round from their dashboard and the bell.`;

/** What a loop template keeps of the form (not its audience, zone or first round: those are each loop's own). */
const TEMPLATE_FIELDS = [
  'title',
  'description',
  'questions',
  'cadence',
  'weekday',
  'time',
  'roundDays',
  'anonymous',
  'minResponses',
  'reminder',
] as const;

/** The browser's time zone, the form's default (there is no workspace time zone yet, decision 0009). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every zone the browser knows, with the browser's own and the loop's (some browsers list no 'UTC'). */
function timeZones(...wanted: string[]): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(wanted.filter((zone) => !listed.includes(zone))), ...listed];
}

export function ConfigureLoopForm({
  workspaceName,
  origin,
  defaults,
  editing,
}: {
  workspaceName: string;
  /** 'Template: Weekly Pulse', 'From scratch', 'Editing …'. */
  origin: string;
  defaults: LaunchLoopInput;
  /** The loop being edited; a new loop without it. */
  editing?: LoopDetail;
}) {
  const navigate = useNavigate();
  const mailEnabled = useSession().data?.mailEnabled ?? true;
  const launch = useLaunchLoop();
  const edit = useEditLoop(editing?.id ?? '');
  const [ownZone] = useState(browserTimeZone);
  const [zones] = useState(() => timeZones(ownZone, defaults.timeZone));
  const form: LoopForm = useForm<LaunchLoopInput, unknown, LaunchLoop>({
    resolver: zodResolver(launchLoopSchema),
    defaultValues: defaults,
  });
  const { control, register, formState } = form;
  const errors = formState.errors;
  const [banner, setBanner] = useState<string | null>(null);
  const members = useWorkspaceMembers(defaults.workspaceId);
  const [cadence, weekday, time, timeZone, start, roundDays, anonymous, questions] = useWatch({
    control,
    name: ['cadence', 'weekday', 'time', 'timeZone', 'start', 'roundDays', 'anonymous', 'questions'],
  });
  const preview = firstRoundPreview({ cadence, weekday, time, timeZone, start, roundDays }, new Date());

  const failed = (fallback: string) => (error: unknown) =>
    setBanner(applyServerErrors(error, form, fallback));
  const submit = form.handleSubmit((values) => {
    setBanner(null);
    if (editing) {
      // A loop's definition: everything but what only its launch takes.
      const {
        start: _start,
        workspaceId: _workspace,
        templateId: _template,
        launchKey: _key,
        ...definition
      } = values;
      edit.mutate(definition, {
        onSuccess: () => {
          toast.success('Loop saved', { duration: TOAST.save });
          void navigate(LOOP_LINKS.completionStatus(editing.id));
        },
        onError: failed('The loop could not be saved. Please try again.'),
      });
      return;
    }
    launch.mutate(values, {
      onSuccess: (result) => {
        toast.success('Loop launched', { duration: TOAST.save });
        if (result.mail === 'off') toast.error(MAIL_OFF);
        void navigate(LOOP_LINKS.completionStatus(result.id));
      },
      onError: failed('The loop could not be launched. Please try again.'),
    });
  });
  const pending = launch.isPending || edit.isPending;

  const saveTemplate = useSaveLoopTemplate();
  const asTemplate = async () => {
    setBanner(null);
    // A template holds the questions and settings; when the first round opens is each loop's own.
    if (!(await form.trigger(TEMPLATE_FIELDS, { shouldFocus: true }))) return;
    const values = form.getValues();
    saveTemplate.mutate(
      {
        workspaceId: values.workspaceId,
        template: {
          title: values.title,
          description: values.description ?? '',
          questions: values.questions.map(({ id: _id, ...question }) => question),
          defaults: {
            cadence: values.cadence,
            weekday: values.weekday,
            time: values.time,
            roundDays: values.roundDays,
            anonymous: values.anonymous,
            minResponses: values.minResponses,
            reminder: values.reminder,
          },
        },
      },
      {
        onSuccess: () =>
          toast.success('Saved as a workspace template: it is listed under Templates', {
            duration: TOAST.save,
          }),
        onError: failed('The template could not be saved. Please try again.'),
      },
    );
  };
  // Once people have answered, anonymity stays on and the minimum only rises (the server says so too).
  const locked = editing?.hasAnswers
    ? { anonymous: editing.anonymous, minResponses: editing.minResponses }
    : null;

  return (
    <form className="flex flex-col gap-6" onSubmit={(event) => void submit(event)} noValidate>
      <div>
        {editing ? (
          <IconLink to={LOOP_LINKS.completionStatus(editing.id)} icon={ArrowLeft}>
            Back to Completion Status
          </IconLink>
        ) : (
          <IconLink to="/admin/templates?type=loop" icon={ArrowLeft}>
            Back to Templates
          </IconLink>
        )}
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">Configure Loop</h1>
        <p className="mt-1 text-sm text-slate-600">
          Workspace: <span className="font-medium text-slate-800">{workspaceName}</span> · {origin}
        </p>
      </div>
      {locked && <Notice tone="info">{LOOP_MESSAGES.settingsOnlyStricter}.</Notice>}
      {!mailEnabled && <Notice tone="warning">{MAIL_OFF}</Notice>}

      {banner && (
        <Notice tone="error" onDismiss={() => setBanner(null)}>
          {banner}
        </Notice>
      )}

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title="Loop"
        description="What people see at the top of each round’s e-mail and answer page."
      >
        <FormField label="Title" error={errors.title?.message}>
          <Input maxLength={LOOP_LIMITS.titleMax} {...register('title')} />
        </FormField>
        <FormField label="Description" error={errors.description?.message}>
          <Textarea maxLength={LOOP_LIMITS.descriptionMax} {...register('description')} />
        </FormField>
      </SectionCard>

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title="Questions"
        description={
          editing
            ? 'Rewording a question starts a new trend line in the insights; its earlier answers keep their own.'
            : `1 to ${LOOP_LIMITS.questionsMax} short questions, asked in this order every round.`
        }
      >
        <QuestionBuilder form={form} />
        <details className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          <summary className="cursor-pointer text-sm font-medium text-slate-900">
            Preview what people answer
          </summary>
          <div className="mt-4">
            <AnswerPreview questions={questions ?? []} />
          </div>
        </details>
      </SectionCard>

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title="Who is asked"
        description="Everyone active in the workspace when a round opens, or the members you choose."
      >
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
      </SectionCard>

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title="Schedule"
        description={
          editing
            ? `Times are in ${timeZone}. A new schedule takes effect from its next slot; an open round keeps its closing time.`
            : `Times are in ${timeZone}.`
        }
      >
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
          <FormField label="Time" error={errors.time?.message} hint={`In ${timeZone}.`}>
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
        <SwitchRow
          form={form}
          name="followUpActions"
          label={FOLLOW_UP_MESSAGES.loopSwitch}
          hint={FOLLOW_UP_MESSAGES.loopSwitchHint}
        />
      </SectionCard>

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title="Privacy"
        description="What protects the people who answer."
      >
        <SwitchRow
          form={form}
          name="anonymous"
          label="Anonymous answers"
          hint="Answers are stored without who gave them; results never show names."
          disabled={locked?.anonymous === true}
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
            min={Math.max(anonymous ? MIN_ANONYMOUS_RESPONSES : 1, locked?.minResponses ?? 1)}
            max={LOOP_LIMITS.minResponsesMax}
            {...register('minResponses', { valueAsNumber: true })}
          />
        </FormField>
      </SectionCard>

      {!editing && (
        <SectionCard
          contentClassName="flex flex-col gap-4"
          title="First round"
          description="When the first round opens; later rounds follow the schedule."
        >
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
        </SectionCard>
      )}

      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" disabled={saveTemplate.isPending} onClick={() => void asTemplate()}>
          <LayoutTemplate aria-hidden="true" />
          {saveTemplate.isPending ? 'Saving template...' : 'Save as Template'}
        </Button>
        {editing ? (
          <SubmitButton pending={pending} busy="Saving...">
            Save Changes
          </SubmitButton>
        ) : (
          <SubmitButton pending={pending} busy="Launching...">
            <Rocket aria-hidden="true" />
            {LOOP_MESSAGES.launch}
          </SubmitButton>
        )}
      </div>
    </form>
  );
}

function SwitchRow({
  form,
  name,
  label,
  hint,
  disabled,
}: {
  form: LoopForm;
  name: 'anonymous' | 'reminder' | 'followUpActions';
  label: string;
  hint: string;
  disabled?: boolean;
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
            disabled={disabled}
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

/** The questions as the answer page shows them, to try out (no form: nothing can be sent from here). */
function AnswerPreview({ questions }: { questions: LaunchLoopInput['questions'] }) {
  const [values, setValues] = useState<RoundAnswers>({});
  const shown: LoopQuestionOut[] = questions.map((question, index) => ({
    id: `preview-${index}`,
    kind: question.kind,
    text: question.text.trim() || `Question ${index + 1}`,
    lowLabel: question.kind === 'scale' ? question.lowLabel : null,
    highLabel: question.kind === 'scale' ? question.highLabel : null,
  }));
  return (
    <div className="flex flex-col gap-4">
      <QuestionFields
        questions={shown}
        values={values}
        onChange={(id, value) => setValues((current) => ({ ...current, [id]: value }))}
      />
    </div>
  );
}
