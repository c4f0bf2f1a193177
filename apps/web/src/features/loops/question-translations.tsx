import { LANGUAGES, type Language } from '@pulsecheck/shared/i18n/languages';
import { LOOP_LIMITS, type QuestionKind } from '@pulsecheck/shared/loops/rules';
import {
  questionTranslationSchema,
  scaleQuestionTranslationSchema,
  type QuestionTranslation,
} from '@pulsecheck/shared/loops/schemas';
import { Languages, Pencil, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useFormState, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { languageName, say, t } from '@/lib/i18n';
import type { LoopForm } from './question-builder';

type Draft = { language: Language; text: string; lowLabel: string; highLabel: string; existing: boolean };
type DraftErrors = Partial<Record<'text' | 'lowLabel' | 'highLabel', string>>;

/**
 * A question's translations (decision 0027, 'Content in several languages'): listed with Edit and Remove, and
 * 'Add a translation', which opens a small form under the question (a language not given yet, the wording and, for
 * a scale, its end labels), checked with the shared schema as the original's wording is. Enter saves the
 * translation, not the loop; Escape closes the form; the focus goes back to the button that opened it.
 */
export function QuestionTranslations({
  form,
  index,
  kind,
}: {
  form: LoopForm;
  index: number;
  kind: QuestionKind;
}) {
  const number = index + 1;
  const path = `questions.${index}.translations` as const;
  const translations = (useWatch({ control: form.control, name: path }) ?? {}) as Partial<
    Record<Language, QuestionTranslation>
  >;
  const loopLanguage = useWatch({ control: form.control, name: 'language' });
  const { errors } = useFormState({ control: form.control, name: path });
  const listed = LANGUAGES.filter((language) => translations[language]);
  const free = LANGUAGES.filter((language) => language !== loopLanguage && !translations[language]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [draftErrors, setDraftErrors] = useState<DraftErrors>({});
  const opener = useRef<HTMLButtonElement | null>(null);
  const formId = useId();

  const questionErrors = errors.questions?.[index] as
    | { translations?: Partial<Record<Language, { message?: string; text?: { message?: string } }>> }
    | undefined;

  const open = (next: Draft, button: HTMLButtonElement) => {
    opener.current = button;
    setDraftErrors({});
    setDraft(next);
  };
  const close = () => {
    setDraft(null);
    setDraftErrors({});
    // The button that opened the form, or 'Add a translation' when it was removed meanwhile.
    requestAnimationFrame(() =>
      (opener.current?.isConnected ? opener.current : document.getElementById(`${formId}-add`))?.focus(),
    );
  };
  const save = () => {
    if (!draft) return;
    const schema = kind === 'scale' ? scaleQuestionTranslationSchema : questionTranslationSchema;
    const parsed = schema.safeParse(
      kind === 'scale'
        ? { text: draft.text, lowLabel: draft.lowLabel, highLabel: draft.highLabel }
        : { text: draft.text },
    );
    if (!parsed.success) {
      const found: DraftErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof DraftErrors;
        found[field] ??= issue.message;
      }
      setDraftErrors(found);
      return;
    }
    form.setValue(path, { ...translations, [draft.language]: parsed.data }, { shouldDirty: true });
    void form.trigger('questions');
    close();
  };
  const remove = (language: Language) => {
    const rest = { ...translations };
    delete rest[language];
    form.setValue(path, rest, { shouldDirty: true });
    void form.trigger('questions');
    requestAnimationFrame(() => document.getElementById(`${formId}-add`)?.focus());
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.target as HTMLElement).tagName === 'INPUT') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };
  const name = (language: Language) => languageName(language);

  return (
    <div className="flex flex-col gap-2">
      {listed.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label={t('loopForm.translationsOf', { number })}>
          {listed.map((language) => {
            const translation = translations[language]!;
            const error = questionErrors?.translations?.[language];
            const message = error?.message ?? error?.text?.message;
            return (
              <li key={language} className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <p className="min-w-0 break-words">
                    <span className="font-medium text-slate-900">{name(language)}:</span>{' '}
                    <span lang={language}>{translation.text}</span>
                    {kind === 'scale' && translation.lowLabel && (
                      <span className="block text-xs text-slate-600" lang={language}>
                        {translation.lowLabel} – {translation.highLabel}
                      </span>
                    )}
                  </p>
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('loopForm.editTranslation', { language: name(language), number })}
                      disabled={draft !== null}
                      onClick={(event) =>
                        open(
                          {
                            language,
                            text: translation.text,
                            lowLabel: translation.lowLabel ?? '',
                            highLabel: translation.highLabel ?? '',
                            existing: true,
                          },
                          event.currentTarget,
                        )
                      }
                    >
                      <Pencil aria-hidden="true" />
                      {t('common.edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t('loopForm.removeTranslation', { language: name(language), number })}
                      onClick={() => remove(language)}
                    >
                      <Trash2 aria-hidden="true" />
                      {t('common.remove')}
                    </Button>
                  </div>
                </div>
                {message && (
                  <p role="alert" className="mt-1 text-sm text-red-700">
                    {say(message)}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {draft ? (
        <fieldset
          className="flex flex-col gap-3 rounded-lg border border-slate-300 p-3"
          onKeyDown={onKeyDown}
        >
          <legend className="px-1 text-sm font-medium text-slate-900">
            {t('loopForm.translationLegend', { number })}
          </legend>
          {draft.existing ? (
            <p className="text-sm text-slate-700">{name(draft.language)}</p>
          ) : (
            <FormField label={t('loopForm.translationLanguage')}>
              <Select
                value={draft.language}
                onChange={(event) => setDraft({ ...draft, language: event.target.value as Language })}
              >
                {free.map((language) => (
                  <option key={language} value={language}>
                    {name(language)}
                  </option>
                ))}
              </Select>
            </FormField>
          )}
          <FormField
            label={t('loopForm.translationWording', { language: name(draft.language) })}
            error={draftErrors.text}
          >
            <Input
              autoFocus
              lang={draft.language}
              maxLength={LOOP_LIMITS.questionMax}
              value={draft.text}
              onChange={(event) => setDraft({ ...draft, text: event.target.value })}
            />
          </FormField>
          {kind === 'scale' && (
            <div className="grid gap-3 sm:grid-cols-2">
              <FormField
                label={t('loopForm.translationLowLabel', { language: name(draft.language) })}
                error={draftErrors.lowLabel}
              >
                <Input
                  lang={draft.language}
                  maxLength={LOOP_LIMITS.scaleLabelMax}
                  value={draft.lowLabel}
                  onChange={(event) => setDraft({ ...draft, lowLabel: event.target.value })}
                />
              </FormField>
              <FormField
                label={t('loopForm.translationHighLabel', { language: name(draft.language) })}
                error={draftErrors.highLabel}
              >
                <Input
                  lang={draft.language}
                  maxLength={LOOP_LIMITS.scaleLabelMax}
                  value={draft.highLabel}
                  onChange={(event) => setDraft({ ...draft, highLabel: event.target.value })}
                />
              </FormField>
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={save}>
              {t('loopForm.saveTranslation')}
            </Button>
            <Button size="sm" variant="secondary" onClick={close}>
              {t('common.cancel')}
            </Button>
          </div>
        </fieldset>
      ) : (
        free.length > 0 && (
          <Button
            id={`${formId}-add`}
            size="sm"
            variant="secondary"
            className="self-start"
            aria-label={t('loopForm.addTranslationTo', { number })}
            onClick={(event) =>
              open(
                { language: free[0]!, text: '', lowLabel: '', highLabel: '', existing: false },
                event.currentTarget,
              )
            }
          >
            <Languages aria-hidden="true" />
            {t('loopForm.addTranslation')}
          </Button>
        )
      )}
    </div>
  );
}
