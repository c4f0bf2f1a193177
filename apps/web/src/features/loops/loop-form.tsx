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
import { LANGUAGES } from '@pulsecheck/shared/i18n/languages';
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
import { languageName, say, t, tRich } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useEditLoop, useLaunchLoop, useSaveLoopTemplate, useWorkspaceMembers } from './api';
import { QuestionFields } from './answer-form';
import { AudienceField } from './audience-field';
import { QuestionBuilder, sayError, type LoopForm } from './question-builder';
import { firstRoundPreview } from './schedule-preview';

/**
 * The Configure Loop form, for a new loop ('Launch Loop') or one being edited ('Save Changes'), both checked with
 * `launchLoopSchema` so every message is the shared one; 'Save as Template' keeps its questions and settings.
 */
/** Said where round e-mails would go out while the server sends none (MAIL_DISABLED). */
const mailOff = () => t('loopForm.mailOff', { notice: say(MAIL_MESSAGES.offNotice) });

/** What a loop template keeps of the form (not its audience, zone or first round: those are each loop's own). */
const TEMPLATE_FIELDS = [
  'title',
  'language',
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
          toast.success(t('loopForm.saved'), { duration: TOAST.save });
          void navigate(LOOP_LINKS.completionStatus(editing.id));
        },
        onError: failed(t('loopForm.saveFailed')),
      });
      return;
    }
    launch.mutate(values, {
      onSuccess: (result) => {
        toast.success(t('loopForm.launched'), { duration: TOAST.save });
        if (result.mail === 'off') toast.error(mailOff());
        void navigate(LOOP_LINKS.completionStatus(result.id));
      },
      onError: failed(t('loopForm.launchFailed')),
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
          ...(values.language ? { language: values.language } : {}),
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
          toast.success(t('loopForm.templateSaved'), {
            duration: TOAST.save,
          }),
        onError: failed(t('loopForm.templateSaveFailed')),
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
            {t('loopForm.backToCompletionStatus')}
          </IconLink>
        ) : (
          <IconLink to="/admin/templates?type=loop" icon={ArrowLeft}>
            {t('loopForm.backToTemplates')}
          </IconLink>
        )}
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">{t('loopForm.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {tRich('loopForm.workspaceOrigin', {
            workspace: workspaceName,
            origin,
            name: (chunks) => <span className="font-medium text-slate-800">{chunks}</span>,
          })}
        </p>
      </div>
      {locked && (
        <Notice tone="info">
          {t('loopForm.sentence', { text: say(LOOP_MESSAGES.settingsOnlyStricter) })}
        </Notice>
      )}
      {!mailEnabled && <Notice tone="warning">{mailOff()}</Notice>}

      {banner && (
        <Notice tone="error" onDismiss={() => setBanner(null)}>
          {say(banner)}
        </Notice>
      )}

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title={t('loopForm.loopSection')}
        description={t('loopForm.loopSectionHint')}
      >
        <FormField label={t('loopForm.titleLabel')} error={sayError(errors.title?.message)}>
          <Input maxLength={LOOP_LIMITS.titleMax} {...register('title')} />
        </FormField>
        <FormField label={t('loopForm.descriptionLabel')} error={sayError(errors.description?.message)}>
          <Textarea maxLength={LOOP_LIMITS.descriptionMax} {...register('description')} />
        </FormField>
      </SectionCard>

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title={t('loopForm.questionsSection')}
        description={
          editing
            ? t('loopForm.questionsSectionEditHint')
            : t('loopForm.questionsSectionHint', { max: LOOP_LIMITS.questionsMax })
        }
      >
        <FormField
          label={t('loopForm.language')}
          hint={t('loopForm.languageHint')}
          error={sayError(errors.language?.message)}
        >
          <Select {...register('language')}>
            {LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {languageName(language)}
              </option>
            ))}
          </Select>
        </FormField>
        <QuestionBuilder form={form} />
        <details className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          <summary className="cursor-pointer text-sm font-medium text-slate-900">
            {t('loopForm.preview')}
          </summary>
          <div className="mt-4">
            <AnswerPreview questions={questions ?? []} />
          </div>
        </details>
      </SectionCard>

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title={t('loopForm.whoSection')}
        description={t('loopForm.whoSectionHint')}
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
        title={t('loopForm.scheduleSection')}
        description={
          editing
            ? t('loopForm.scheduleSectionEditHint', { timeZone })
            : t('loopForm.scheduleSectionHint', { timeZone })
        }
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label={t('loopForm.cadence')} error={sayError(errors.cadence?.message)}>
            <Select {...register('cadence')}>
              {CADENCES.map((value) => (
                <option key={value} value={value}>
                  {say(CADENCE_LABELS[value])}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label={t('loopForm.weekday')} error={sayError(errors.weekday?.message)}>
            <Select {...register('weekday')}>
              {WEEKDAYS.map((value) => (
                <option key={value} value={value}>
                  {say(WEEKDAY_LABELS[value])}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField
            label={t('loopForm.time')}
            error={sayError(errors.time?.message)}
            hint={t('loopForm.timeHint', { timeZone })}
          >
            <Input type="time" {...register('time')} />
          </FormField>
          <FormField
            label={t('loopForm.timeZone')}
            error={sayError(errors.timeZone?.message)}
            hint={timeZone === ownZone ? t('loopForm.timeZoneHint') : undefined}
          >
            <Select {...register('timeZone')}>
              {zones.map((zone) => (
                // An IANA name ('Europe/Berlin'), the same in every language.
                <option key={zone} value={zone} translate="no">
                  {zone}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField
            label={t('loopForm.roundDays')}
            error={sayError(errors.roundDays?.message)}
            hint={t('loopForm.roundDaysHint', {
              min: LOOP_LIMITS.roundDaysMin,
              max: LOOP_LIMITS.roundDaysMax,
            })}
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
          label={t('loopForm.reminder')}
          hint={t('loopForm.reminderHint')}
        />
        <SwitchRow
          form={form}
          name="followUpActions"
          label={say(FOLLOW_UP_MESSAGES.loopSwitch)}
          hint={say(FOLLOW_UP_MESSAGES.loopSwitchHint)}
        />
      </SectionCard>

      <SectionCard
        contentClassName="flex flex-col gap-4"
        title={t('loopForm.privacySection')}
        description={t('loopForm.privacySectionHint')}
      >
        <SwitchRow
          form={form}
          name="anonymous"
          label={t('loopForm.anonymous')}
          hint={t('loopForm.anonymousHint')}
          disabled={locked?.anonymous === true}
        />
        <FormField
          label={t('loopForm.minResponses')}
          error={sayError(errors.minResponses?.message)}
          hint={
            anonymous
              ? t('loopForm.minResponsesAnonymousHint', { min: MIN_ANONYMOUS_RESPONSES })
              : t('loopForm.minResponsesHint')
          }
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
          title={t('loopForm.firstRoundSection')}
          description={t('loopForm.firstRoundSectionHint')}
        >
          <Controller
            control={control}
            name="start"
            render={({ field, fieldState }) => (
              <StartField
                value={field.value}
                onChange={field.onChange}
                error={sayError(fieldState.error?.message)}
              />
            )}
          />
          {preview?.kind === 'plan' && (
            <dl
              className="grid gap-1 text-sm text-slate-700 sm:grid-cols-[auto_1fr] sm:gap-x-4"
              data-testid="first-round"
            >
              <dt className="font-medium text-slate-900">{t('loopForm.firstRoundOpens')}</dt>
              <dd>{preview.opens}</dd>
              {preview.closes && (
                <>
                  <dt className="font-medium text-slate-900">{t('loopForm.firstRoundCloses')}</dt>
                  <dd>{preview.closes}</dd>
                </>
              )}
              <dt className="font-medium text-slate-900">{t('loopForm.nextRoundOpens')}</dt>
              <dd>{preview.next}</dd>
            </dl>
          )}
          {preview?.kind === 'problem' && !errors.start && (
            <Notice tone="warning">{say(preview.message)}</Notice>
          )}
        </SectionCard>
      )}

      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" disabled={saveTemplate.isPending} onClick={() => void asTemplate()}>
          <LayoutTemplate aria-hidden="true" />
          {saveTemplate.isPending ? t('loopForm.savingTemplate') : t('loopForm.saveAsTemplate')}
        </Button>
        {editing ? (
          <SubmitButton pending={pending} busy={t('loopForm.saving')}>
            {t('loopForm.saveChanges')}
          </SubmitButton>
        ) : (
          <SubmitButton pending={pending} busy={t('loopForm.launching')}>
            <Rocket aria-hidden="true" />
            {say(LOOP_MESSAGES.launch)}
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
      <legend className="text-sm font-medium text-slate-800">{t('loopForm.startLegend')}</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="loop-start" checked={!byDate} onChange={() => onChange('now')} />
        {t('loopForm.startNow')}
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="loop-start" checked={byDate} onChange={() => onChange(date)} />
        {t('loopForm.startFromDate')}
      </label>
      {byDate && (
        <div className="flex max-w-xs flex-col gap-1.5">
          <Label htmlFor="loop-start-date">{t('loopForm.startDate')}</Label>
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
    text: question.text.trim() || t('loopForm.questionNumber', { number: index + 1 }),
    lowLabel: question.kind === 'scale' ? question.lowLabel : null,
    highLabel: question.kind === 'scale' ? question.highLabel : null,
    shownIn: null,
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
