import type { HealthCheckSettings } from '@pulsecheck/shared/health-checks/schemas';
import { Controller, useFormState, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { say, t } from '@/lib/i18n';

/** The settings that are on or off, in the app's language. */
const toggles = (): {
  key: 'allowAnonymous' | 'enableComments' | 'showResultsAfterVoting';
  label: string;
  hint: string;
}[] => [
  {
    key: 'allowAnonymous',
    label: t('healthChecks.anonymous'),
    hint: t('healthChecks.anonymousHint'),
  },
  { key: 'enableComments', label: t('healthChecks.comments'), hint: t('healthChecks.commentsHint') },
  {
    key: 'showResultsAfterVoting',
    label: t('healthChecks.showResults'),
    hint: t('healthChecks.showResultsHint'),
  },
];

type SettingKey = keyof HealthCheckSettings;

/**
 * The settings of spec section 3, with the spec's ranges, as fields of `form` (`name` says where each setting
 * sits in its values); numbers stay text while typed. With `stricterThan` (the settings in force once people
 * have joined) the protective settings offer only stricter values; the server enforces the same rule.
 */
export function SettingsFields<T extends FieldValues>({
  form,
  name,
  disabled,
  stricterThan,
}: {
  form: UseFormReturn<T>;
  name: (key: SettingKey) => Path<T>;
  disabled?: boolean;
  stricterThan?: HealthCheckSettings;
}) {
  const formState = useFormState({ control: form.control });
  const error = (key: SettingKey) => {
    const message = form.getFieldState(name(key), formState).error?.message;
    return message === undefined ? undefined : say(message);
  };
  const locked = {
    allowAnonymous: stricterThan?.allowAnonymous === true,
    enableComments: stricterThan?.enableComments === false,
    showResultsAfterVoting: false,
  };
  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label={t('healthChecks.minResponses')}
          hint={t('healthChecks.minResponsesHint')}
          error={error('minResponses')}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={stricterThan?.minResponses ?? 1}
            max={50}
            disabled={disabled}
            {...form.register(name('minResponses'), { valueAsNumber: true })}
          />
        </FormField>
        <FormField
          label={t('healthChecks.votesPerPerson')}
          hint={t('healthChecks.votesPerPersonHint')}
          error={error('votesPerPerson')}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={10}
            disabled={disabled}
            {...form.register(name('votesPerPerson'), { valueAsNumber: true })}
          />
        </FormField>
      </div>
      {toggles().map(({ key, label, hint }) => (
        <div key={key} className="flex items-start justify-between gap-4">
          <div>
            <Label htmlFor={`setting-${key}`}>{label}</Label>
            <p className="text-xs text-slate-600">{hint}</p>
          </div>
          <Controller
            control={form.control}
            name={name(key)}
            render={({ field }) => (
              <Switch
                ref={field.ref}
                id={`setting-${key}`}
                checked={field.value === true}
                disabled={disabled || locked[key]}
                onCheckedChange={field.onChange}
              />
            )}
          />
        </div>
      ))}
    </div>
  );
}
