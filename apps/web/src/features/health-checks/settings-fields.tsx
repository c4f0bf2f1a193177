import type { HealthCheckSettings } from '@pulsecheck/shared/health-checks/schemas';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';

const TOGGLES: {
  key: 'allowAnonymous' | 'enableComments' | 'showResultsAfterVoting';
  label: string;
  hint: string;
}[] = [
  {
    key: 'allowAnonymous',
    label: 'Anonymous responses',
    hint: 'Results never show who gave which rating or comment.',
  },
  { key: 'enableComments', label: 'Enable comments', hint: 'Participants may add a comment to each rating.' },
  {
    key: 'showResultsAfterVoting',
    label: 'Show results after voting',
    hint: 'Participants see the per-component results once they are released.',
  },
];

export type SettingsErrors = Partial<Record<keyof HealthCheckSettings, string>>;

/**
 * The settings of spec section 3, with the spec's ranges; numbers stay text while typed. With `stricterThan`
 * (the settings in force once people have joined) the protective settings offer only stricter values; the
 * server enforces the same rule.
 */
export function SettingsFields({
  value,
  onChange,
  errors,
  disabled,
  stricterThan,
}: {
  value: { minResponses: string; votesPerPerson: string } & Omit<
    HealthCheckSettings,
    'minResponses' | 'votesPerPerson'
  >;
  onChange: (next: SettingsFieldsValue) => void;
  errors: SettingsErrors;
  disabled?: boolean;
  stricterThan?: HealthCheckSettings;
}) {
  const locked = {
    allowAnonymous: stricterThan?.allowAnonymous === true,
    enableComments: stricterThan?.enableComments === false,
    showResultsAfterVoting: false,
  };
  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Minimum responses"
          hint="1 to 50 completed responses before results and voting open."
          error={errors.minResponses}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={stricterThan?.minResponses ?? 1}
            max={50}
            value={value.minResponses}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, minResponses: e.target.value })}
          />
        </FormField>
        <FormField
          label="Votes per person"
          hint="1 to 10 dots each in the voting phase."
          error={errors.votesPerPerson}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={10}
            value={value.votesPerPerson}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, votesPerPerson: e.target.value })}
          />
        </FormField>
      </div>
      {TOGGLES.map(({ key, label, hint }) => (
        <div key={key} className="flex items-start justify-between gap-4">
          <div>
            <Label htmlFor={`setting-${key}`}>{label}</Label>
            <p className="text-xs text-slate-600">{hint}</p>
          </div>
          <Switch
            id={`setting-${key}`}
            checked={value[key]}
            disabled={disabled || locked[key]}
            onCheckedChange={(checked) => onChange({ ...value, [key]: checked })}
          />
        </div>
      ))}
    </div>
  );
}

export type SettingsFieldsValue = Parameters<typeof SettingsFields>[0]['value'];

export const toFields = (settings: HealthCheckSettings): SettingsFieldsValue => ({
  ...settings,
  minResponses: String(settings.minResponses),
  votesPerPerson: String(settings.votesPerPerson),
});

/** Numbers back from the text fields; anything not a number stays NaN so the schema names it. */
export const fromFields = (fields: SettingsFieldsValue): HealthCheckSettings => ({
  ...fields,
  minResponses: fields.minResponses.trim() === '' ? Number.NaN : Number(fields.minResponses),
  votesPerPerson: fields.votesPerPerson.trim() === '' ? Number.NaN : Number(fields.votesPerPerson),
});
