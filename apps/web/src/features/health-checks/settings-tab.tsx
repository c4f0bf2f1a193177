import { zodResolver } from '@hookform/resolvers/zod';
import { loosenedSettings } from '@pulsecheck/shared/health-checks/rules';
import {
  loosenedMessages,
  settingsSchema,
  type HealthCheckDetail,
} from '@pulsecheck/shared/health-checks/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { TOAST, toast } from '@/components/ui/toaster';
import { applyServerErrors } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { useSaveSettings } from './api';
import { SettingsFields } from './settings-fields';

/**
 * The manage screen's Settings tab: editable while the check collects, by workspace admins and its creator; once
 * anyone has joined, the settings that protect participants only get stricter (the server enforces the same).
 */
export function SettingsTab({ check }: { check: HealthCheckDetail }) {
  const form = useForm({
    resolver: zodResolver(settingsSchema),
    defaultValues: check.settings,
    // Each message is announced where it shows (role="alert"); focus stays on the button that was pressed.
    shouldFocusError: false,
    reValidateMode: 'onSubmit',
  });
  const save = useSaveSettings(check.id);
  const editable = check.canManage && check.phase === 'collect';
  // Once anyone has joined, the settings that protect participants only get stricter (PRODUCT-DECISIONS 3).
  const stricterOnly = check.participants.total > 0;

  const submit = form.handleSubmit((settings) => {
    const loosened = stricterOnly ? loosenedSettings(check.settings, settings) : [];
    if (loosened.length > 0) {
      const messages = loosenedMessages(check.settings, loosened);
      for (const field of loosened) form.setError(field, { message: messages[field] });
      return;
    }
    save.mutate(settings, {
      onSuccess: () => toast.success(say(HEALTH_CHECK_MESSAGES.settingsSaved), { duration: TOAST.save }),
      // The toast answers the save; field errors also go on their fields.
      onError: (error) => {
        applyServerErrors(error, form, error.message);
        toast.error(error.message);
      },
    });
  });

  return (
    <Card>
      <CardContent className="flex flex-col gap-4 pt-6">
        {!editable && (
          <p className="text-sm text-slate-600">
            {check.phase === 'collect'
              ? t('healthChecks.settingsAdminsOnly')
              : say(HEALTH_CHECK_MESSAGES.settingsLocked)}
          </p>
        )}
        {editable && stricterOnly && (
          <p className="rounded-lg bg-blue-50 p-3 text-sm text-blue-900" data-testid="stricter-only">
            {t('healthChecks.settingsOnlyStricterNote')}
          </p>
        )}
        <SettingsFields
          form={form}
          name={(key) => key}
          disabled={!editable}
          stricterThan={stricterOnly ? check.settings : undefined}
        />
        {editable && (
          <Button className="w-fit" onClick={(event) => void submit(event)} disabled={save.isPending}>
            {save.isPending ? t('healthChecks.saving') : t('healthChecks.saveSettings')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
