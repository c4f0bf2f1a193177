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
  if (preferences.isPending) return <Spinner label="Loading notification settings..." className="py-12" />;
  if (preferences.isError) {
    return (
      <LoadFailed
        title={ACCOUNT_MESSAGES.preferencesLoadFailed}
        headingLevel={1}
        onRetry={() => void preferences.refetch()}
      />
    );
  }
  return <SettingsForm initial={preferences.data.preferences} frame={frame} />;
}

/** What browser notifications do in this browser, in its current permission state. */
const BROWSER_NOTIFICATION_TEXT = {
  granted:
    'Browser notifications are on in this browser: while Pulsecheck is open in a tab, everything that reaches your bell also appears as a browser notification.',
  default: 'This browser does not show Pulsecheck notifications yet; you see them on the bell.',
  denied:
    "Browser notifications are blocked for Pulsecheck in this browser, so you see notifications on the bell only. To get them, allow notifications for this site in the browser's site settings.",
  unsupported: 'This browser cannot show notifications, so you see them on the bell only.',
} as const;

function BrowserNotifications() {
  const { permission, request } = useBrowserNotificationPermission();
  return (
    <div className="space-y-2 py-3 text-sm text-slate-600">
      <p role="status">{BROWSER_NOTIFICATION_TEXT[permission]}</p>
      {permission === 'default' && (
        <Button variant="secondary" size="sm" onClick={() => void request()}>
          Allow browser notifications
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

const EMAIL: Switches = [
  {
    name: 'emailNotifications.surveyReminders',
    label: 'Survey Reminders',
    description: 'A daily reminder while a health check you joined waits for your ratings.',
  },
  {
    name: 'emailNotifications.phaseChanges',
    label: 'Phase Changes',
    description:
      'When a health check you take part in or manage moves on: voting starts, it is complete, action planning begins.',
  },
  {
    name: 'emailNotifications.resultsReady',
    label: 'Results Ready',
    description: 'When the results of a health check are shared with you.',
  },
  {
    name: 'emailNotifications.newResponses',
    label: 'New Responses',
    description:
      'At most one email per health check and hour when responses come in, and when everyone has completed.',
    team: true,
  },
  {
    name: 'emailNotifications.weeklyDigest',
    label: 'Weekly Digest',
    description: "Every Monday: how your workspace's health checks stand.",
    team: true,
  },
  {
    name: 'emailNotifications.monthlyReports',
    label: 'Monthly Reports',
    description: "On the 1st of each month: a summary of your team's health.",
    team: true,
  },
  {
    name: 'emailNotifications.teamUpdates',
    label: 'Team Updates',
    description: 'When members join or leave your workspace.',
    team: true,
  },
];

const PUSH: Switches = [
  {
    name: 'pushNotifications.surveyReminders',
    label: 'Survey Reminders',
    description: 'Reminders about health checks you have not finished.',
  },
  {
    name: 'pushNotifications.newResponses',
    label: 'New Responses',
    description: 'Each new response to a health check you created.',
    team: true,
  },
  {
    name: 'pushNotifications.completionMilestones',
    label: 'Completion Milestones',
    description:
      'When at least half of the participants have completed, when enough have to start voting, and when all have.',
    team: true,
  },
  {
    name: 'pushNotifications.teamUpdates',
    label: 'Team Updates',
    description: 'When members join or leave your workspace.',
    team: true,
  },
];

const SLACK_ENABLED: Switches = [
  {
    name: 'slackNotifications.enabled',
    label: 'Enable Slack notifications',
    description: 'Post the updates chosen below to Slack.',
  },
];

const SLACK: Switches = [
  {
    name: 'slackNotifications.surveyReminders',
    label: 'Survey Reminders',
    description: 'Post reminders about health checks waiting for ratings.',
  },
  {
    name: 'slackNotifications.newResponses',
    label: 'New Responses',
    description: 'Post each new response.',
    team: true,
  },
  {
    name: 'slackNotifications.completionMilestones',
    label: 'Completion Milestones',
    description:
      'Post when at least half of the participants have completed, when enough have to start voting, and when all have.',
    team: true,
  },
  {
    name: 'slackNotifications.dailyDigest',
    label: 'Daily Digest',
    description: "A daily summary of your workspace's health checks.",
    team: true,
  },
];

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
        toast.success(ACCOUNT_MESSAGES.preferencesSaved, { duration: TOAST.save });
      } catch (error) {
        applyServerErrors(error, form, ACCOUNT_MESSAGES.preferencesFailed);
        toast.error(errorMessage(error, ACCOUNT_MESSAGES.preferencesFailed));
      }
    },
    (invalid) =>
      toast.error(
        invalid.slackNotifications?.channel?.message ??
          invalid.slackNotifications?.webhookUrl?.message ??
          ACCOUNT_MESSAGES.preferencesFailed,
      ),
  );

  const saveButton = (
    <Button onClick={(event) => void onSave(event)} disabled={formState.isSubmitting}>
      {formState.isSubmitting ? 'Saving...' : 'Save Changes'}
    </Button>
  );

  return (
    <div className="space-y-6">
      {frame === 'admin' && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3">
          <div className="flex items-center gap-4">
            <Logo to="/admin/dashboard" />
            <Link to="/admin/dashboard" className="text-sm font-medium text-brand-700 hover:underline">
              Dashboard
            </Link>
          </div>
          {saveButton}
        </div>
      )}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Notification Settings</h1>
          <p className="mt-1 text-sm text-slate-600">
            Choose what reaches you by email, in the app and in Slack.
            {frame === 'admin' && (
              <>
                {' '}
                <Link to="/admin/account-settings" className="text-brand-700 underline">
                  Back to Account Settings
                </Link>
              </>
            )}
          </p>
        </div>
        {frame === 'participant' && saveButton}
      </div>

      <SettingsCard
        title="Email"
        description="Emails to your sign-in address."
        icon={<Mail className="size-5" aria-hidden="true" />}
      >
        {session.data?.mailEnabled === false && <Notice tone="warning">{MAIL_MESSAGES.settingsOff}</Notice>}
        <Toggles control={control} items={forFrame(EMAIL, frame)} />
      </SettingsCard>

      <SettingsCard
        title="Push"
        description="Decides what reaches the bell in the app and, while Pulsecheck is open in a tab and this browser allows it, a browser notification. Phase changes, action items assigned to you and mentions always reach the bell."
        icon={<Bell className="size-5" aria-hidden="true" />}
      >
        <Toggles control={control} items={forFrame(PUSH, frame)} />
        <BrowserNotifications />
      </SettingsCard>

      <SettingsCard
        title="Slack"
        description="Posts through an incoming webhook of your Slack workspace."
        icon={<MessageSquare className="size-5" aria-hidden="true" />}
      >
        <Toggles control={control} items={SLACK_ENABLED} />
        {slackEnabled && (
          <div className="space-y-4 py-3">
            <FormField
              label="Channel"
              error={errors?.channel?.message}
              hint="Shown in each message, e.g. #survey-updates"
            >
              <Input {...register('slackNotifications.channel')} />
            </FormField>
            <FormField
              label="Incoming webhook URL"
              error={errors?.webhookUrl?.message}
              hint="From your Slack app's Incoming Webhooks page; it decides where messages land. Starts with https://"
            >
              <Input
                type="url"
                inputMode="url"
                placeholder="https://hooks.slack.com/services/..."
                {...register('slackNotifications.webhookUrl')}
              />
            </FormField>
            <Toggles control={control} items={forFrame(SLACK, frame)} />
          </div>
        )}
      </SettingsCard>
      <div className="flex justify-end">{saveButton}</div>
    </div>
  );
}
