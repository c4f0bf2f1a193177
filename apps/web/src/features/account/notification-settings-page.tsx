import { MAIL_MESSAGES } from '@pulsecheck/shared/mail/delivery';
import {
  ACCOUNT_MESSAGES,
  notificationPreferencesSchema,
  type NotificationPreferences,
} from '@pulsecheck/shared/account/schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { Bell, Mail, MessageSquare } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type Control, type FieldPathByValue } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Logo } from '@/components/ui/logo';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { toast, TOAST } from '@/components/ui/toaster';
import { useBrowserNotificationPermission } from '@/lib/browser-notifications';
import { applyServerErrors, errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { usePreferences, useSavePreferences } from './api';
import { Notice } from '@/components/ui/notice';
import { LoadFailed } from '@/components/ui/state-card';
import { useSession } from '@/lib/session';

function Toggle({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4 py-3">
      <div>
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-sm text-slate-600">
          {description}
        </p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={`${id}-description`} />
    </div>
  );
}

function SettingsCard({
  title,
  description,
  icon,
  children,
}: {
  title: string;
  description: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Card>
      <section aria-labelledby={id}>
        <CardHeader>
          <CardTitle id={id} className="flex items-center gap-2">
            {icon}
            {title}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="divide-y divide-slate-100">{children}</CardContent>
      </section>
    </Card>
  );
}

/**
 * Where the page is shown: `admin` in the admin area (the spec's header, every setting); `participant` in the
 * participant layout for people who only take part (issue 14): no second header, and only the settings of
 * what can reach them (survey reminders, phase changes, results; Slack reminders).
 */
export type SettingsFrame = 'admin' | 'participant';

export function NotificationSettingsPage({ frame = 'admin' }: { frame?: SettingsFrame }) {
  const preferences = usePreferences();
  if (preferences.isPending) return <Spinner label={t('notificationSettings.loading')} className="py-12" />;
  if (preferences.isError) {
    return (
      <LoadFailed
        title={say(ACCOUNT_MESSAGES.preferencesLoadFailed)}
        headingLevel={1}
        onRetry={() => void preferences.refetch()}
      />
    );
  }
  return <SettingsForm initial={preferences.data.preferences} frame={frame} />;
}

/** What browser notifications do in this browser, in its current permission state. */
const browserNotificationText = (permission: 'granted' | 'default' | 'denied' | 'unsupported') =>
  t('notificationSettings.browser', { permission });

function BrowserNotifications() {
  const { permission, request } = useBrowserNotificationPermission();
  return (
    <div className="space-y-2 py-3 text-sm text-slate-600">
      <p role="status">{browserNotificationText(permission)}</p>
      {permission === 'default' && (
        <Button variant="secondary" size="sm" onClick={() => void request()}>
          {t('notificationSettings.allowBrowser')}
        </Button>
      )}
    </div>
  );
}

type Preferences = NotificationPreferences;
type Switches = readonly {
  name: FieldPathByValue<Preferences, boolean>;
  label: string;
  description: string;
  /** Only admins and members get it (their health checks, workspace, digests): hidden from participants. */
  team?: true;
}[];

const emailSwitches = (): Switches => [
  {
    name: 'emailNotifications.surveyReminders',
    label: t('notificationSettings.emailSurveyRemindersLabel'),
    description: t('notificationSettings.emailSurveyRemindersDescription'),
  },
  {
    name: 'emailNotifications.phaseChanges',
    label: t('notificationSettings.emailPhaseChangesLabel'),
    description: t('notificationSettings.emailPhaseChangesDescription'),
  },
  {
    name: 'emailNotifications.resultsReady',
    label: t('notificationSettings.emailResultsReadyLabel'),
    description: t('notificationSettings.emailResultsReadyDescription'),
  },
  {
    name: 'emailNotifications.newResponses',
    label: t('notificationSettings.emailNewResponsesLabel'),
    description: t('notificationSettings.emailNewResponsesDescription'),
    team: true,
  },
  {
    name: 'emailNotifications.weeklyDigest',
    label: t('notificationSettings.emailWeeklyDigestLabel'),
    description: t('notificationSettings.emailWeeklyDigestDescription'),
    team: true,
  },
  {
    name: 'emailNotifications.monthlyReports',
    label: t('notificationSettings.emailMonthlyReportsLabel'),
    description: t('notificationSettings.emailMonthlyReportsDescription'),
    team: true,
  },
  {
    name: 'emailNotifications.teamUpdates',
    label: t('notificationSettings.emailTeamUpdatesLabel'),
    description: t('notificationSettings.emailTeamUpdatesDescription'),
    team: true,
  },
];

const pushSwitches = (): Switches => [
  {
    name: 'pushNotifications.surveyReminders',
    label: t('notificationSettings.pushSurveyRemindersLabel'),
    description: t('notificationSettings.pushSurveyRemindersDescription'),
  },
  {
    name: 'pushNotifications.newResponses',
    label: t('notificationSettings.pushNewResponsesLabel'),
    description: t('notificationSettings.pushNewResponsesDescription'),
    team: true,
  },
  {
    name: 'pushNotifications.completionMilestones',
    label: t('notificationSettings.pushCompletionMilestonesLabel'),
    description: t('notificationSettings.pushCompletionMilestonesDescription'),
    team: true,
  },
  {
    name: 'pushNotifications.teamUpdates',
    label: t('notificationSettings.pushTeamUpdatesLabel'),
    description: t('notificationSettings.pushTeamUpdatesDescription'),
    team: true,
  },
];

const slackEnabledSwitches = (): Switches => [
  {
    name: 'slackNotifications.enabled',
    label: t('notificationSettings.slackEnabledLabel'),
    description: t('notificationSettings.slackEnabledDescription'),
  },
];

const slackSwitches = (): Switches => [
  {
    name: 'slackNotifications.surveyReminders',
    label: t('notificationSettings.slackSurveyRemindersLabel'),
    description: t('notificationSettings.slackSurveyRemindersDescription'),
  },
  {
    name: 'slackNotifications.newResponses',
    label: t('notificationSettings.slackNewResponsesLabel'),
    description: t('notificationSettings.slackNewResponsesDescription'),
    team: true,
  },
  {
    name: 'slackNotifications.completionMilestones',
    label: t('notificationSettings.slackCompletionMilestonesLabel'),
    description: t('notificationSettings.slackCompletionMilestonesDescription'),
    team: true,
  },
  {
    name: 'slackNotifications.dailyDigest',
    label: t('notificationSettings.slackDailyDigestLabel'),
    description: t('notificationSettings.slackDailyDigestDescription'),
    team: true,
  },
];

/** A field's error in the app's language (the shared rules' messages are keys). */
const sayError = (message: string | undefined) => (message ? say(message) : undefined);

/** The switches of `items` the person can get something from. */
const forFrame = (items: Switches, frame: SettingsFrame) =>
  frame === 'admin' ? items : items.filter((item) => !item.team);

function Toggles({ control, items }: { control: Control<Preferences>; items: Switches }) {
  return items.map((item) => (
    <Controller
      key={item.name}
      control={control}
      name={item.name}
      render={({ field }) => (
        <Toggle
          label={item.label}
          description={item.description}
          checked={field.value}
          onChange={field.onChange}
        />
      )}
    />
  ));
}

function SettingsForm({ initial, frame }: { initial: NotificationPreferences; frame: SettingsFrame }) {
  const save = useSavePreferences();
  const session = useSession();
  const form = useForm<Preferences>({
    resolver: zodResolver(notificationPreferencesSchema),
    defaultValues: initial,
  });
  const { control, register, formState, handleSubmit } = form;
  const errors = formState.errors.slackNotifications;
  const slackEnabled = useWatch({ control, name: 'slackNotifications.enabled' });

  const onSave = handleSubmit(
    async (values) => {
      try {
        const saved = await save.mutateAsync(values);
        form.reset(saved.preferences);
        toast.success(say(ACCOUNT_MESSAGES.preferencesSaved), { duration: TOAST.save });
      } catch (error) {
        applyServerErrors(error, form, say(ACCOUNT_MESSAGES.preferencesFailed));
        toast.error(errorMessage(error, say(ACCOUNT_MESSAGES.preferencesFailed)));
      }
    },
    (invalid) =>
      toast.error(
        say(
          invalid.slackNotifications?.channel?.message ??
            invalid.slackNotifications?.webhookUrl?.message ??
            ACCOUNT_MESSAGES.preferencesFailed,
        ),
      ),
  );

  const saveButton = (
    <Button onClick={(event) => void onSave(event)} disabled={formState.isSubmitting}>
      {formState.isSubmitting ? t('notificationSettings.saving') : t('notificationSettings.save')}
    </Button>
  );

  return (
    <div className="space-y-6">
      {frame === 'admin' && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3">
          <div className="flex items-center gap-4">
            <Logo to="/admin/dashboard" />
            <Link to="/admin/dashboard" className="text-sm font-medium text-brand-700 hover:underline">
              {t('notificationSettings.dashboard')}
            </Link>
          </div>
          {saveButton}
        </div>
      )}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t('notificationSettings.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {t('notificationSettings.intro')}
            {frame === 'admin' && (
              <>
                {' '}
                <Link to="/admin/account-settings" className="text-brand-700 underline">
                  {t('notificationSettings.backToAccount')}
                </Link>
              </>
            )}
          </p>
        </div>
        {frame === 'participant' && saveButton}
      </div>

      <SettingsCard
        title={t('notificationSettings.emailTitle')}
        description={t('notificationSettings.emailDescription')}
        icon={<Mail className="size-5" aria-hidden="true" />}
      >
        {session.data?.mailEnabled === false && (
          <Notice tone="warning">{say(MAIL_MESSAGES.settingsOff)}</Notice>
        )}
        <Toggles control={control} items={forFrame(emailSwitches(), frame)} />
      </SettingsCard>

      <SettingsCard
        title={t('notificationSettings.pushTitle')}
        description={t('notificationSettings.pushDescription')}
        icon={<Bell className="size-5" aria-hidden="true" />}
      >
        <Toggles control={control} items={forFrame(pushSwitches(), frame)} />
        <BrowserNotifications />
      </SettingsCard>

      <SettingsCard
        title={t('notificationSettings.slackTitle')}
        description={t('notificationSettings.slackDescription')}
        icon={<MessageSquare className="size-5" aria-hidden="true" />}
      >
        <Toggles control={control} items={slackEnabledSwitches()} />
        {slackEnabled && (
          <div className="space-y-4 py-3">
            <FormField
              label={t('notificationSettings.channel')}
              error={sayError(errors?.channel?.message)}
              hint={t('notificationSettings.channelHint')}
            >
              <Input {...register('slackNotifications.channel')} />
            </FormField>
            <FormField
              label={t('notificationSettings.webhookUrl')}
              error={sayError(errors?.webhookUrl?.message)}
              hint={t('notificationSettings.webhookUrlHint')}
            >
              <Input
                type="url"
                inputMode="url"
                placeholder="https://hooks.slack.com/services/..."
                {...register('slackNotifications.webhookUrl')}
              />
            </FormField>
            <Toggles control={control} items={forFrame(slackSwitches(), frame)} />
          </div>
        )}
      </SettingsCard>
      <div className="flex justify-end">{saveButton}</div>
    </div>
  );
}
