import type { Language } from '@pulsecheck/shared/i18n/languages';
import {
  DEFAULT_SCALE_LABELS,
  ENPS_LABELS,
  LOOP_LIMITS,
  QUESTION_KIND_LABELS,
  QUESTION_KINDS,
  type QuestionKind,
} from '@pulsecheck/shared/loops/rules';
import type { LaunchLoop, LaunchLoopInput, LoopQuestion } from '@pulsecheck/shared/loops/schemas';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useFieldArray, useFormState, useWatch, type UseFormReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { say, t } from '@/lib/i18n';
import { QuestionTranslations } from './question-translations';

export type LoopForm = UseFormReturn<LaunchLoopInput, unknown, LaunchLoop>;

type Translated = Partial<Record<Language, { text: string; lowLabel?: string; highLabel?: string }>>;

/** A question's translations for a question of `kind`: a scale's with end labels (to fill in), others' without. */
function translationsOfKind(kind: QuestionKind, from: Translated | undefined) {
  if (!from) return {};
  const entries = Object.entries(from).map(([language, entry]) => [
    language,
    kind === 'scale'
      ? { text: entry.text, lowLabel: entry.lowLabel ?? '', highLabel: entry.highLabel ?? '' }
      : { text: entry.text },
  ]);
  return entries.length > 0 ? { translations: Object.fromEntries(entries) as Translated } : {};
}

/**
 * A new question of `kind`, keeping the wording already written, its translations (and its id: a kind change is
 * an edit).
 */
export function questionOfKind(kind: QuestionKind, from?: Partial<LoopQuestion>): LoopQuestion {
  const base = {
    ...(from?.id ? { id: from.id } : {}),
    text: from?.text ?? '',
    ...translationsOfKind(kind, from?.translations),
  };
  if (kind === 'scale') {
    return {
      ...(base as typeof base & { translations?: Record<Language, Required<Translated[Language]>> }),
      kind,
      lowLabel: from && 'lowLabel' in from && from.lowLabel ? from.lowLabel : say(DEFAULT_SCALE_LABELS.low),
      highLabel:
        from && 'highLabel' in from && from.highLabel ? from.highLabel : say(DEFAULT_SCALE_LABELS.high),
    };
  }
  return { ...base, kind };
}

/** A form error, which the shared schema writes as a catalogue key. */
export const sayError = (message: string | undefined) => (message === undefined ? undefined : say(message));

type Move = { key: string; direction: 'up' | 'down' };

/**
 * The questions of a loop: add, edit, change the kind, reorder (buttons, so the keyboard can do it; focus stays on
 * the moved question's button) and remove, 1 to 10 of them. Messages come from the shared schema through the form.
 */
export function QuestionBuilder({ form }: { form: LoopForm }) {
  const { control, register } = form;
  const { fields, append, remove, move, update } = useFieldArray({
    control,
    name: 'questions',
    keyName: 'fieldKey',
  });
  const questions = useWatch({ control, name: 'questions' });
  const { errors } = useFormState({ control, name: 'questions' });
  // The question just moved, whose button gets the focus back once the list has re-rendered.
  const moved = useRef<Move | null>(null);

  useEffect(() => {
    const last = moved.current;
    if (!last) return;
    moved.current = null;
    const button = (direction: 'up' | 'down') =>
      document.getElementById(`question-${last.key}-${direction}`) as HTMLButtonElement | null;
    const target = button(last.direction);
    (target && !target.disabled ? target : button(last.direction === 'up' ? 'down' : 'up'))?.focus();
  });

  const listError =
    (errors.questions as { message?: string; root?: { message?: string } } | undefined)?.root?.message ??
    (errors.questions as { message?: string } | undefined)?.message;

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600" aria-live="polite">
        {t('loopForm.questionCount', { count: fields.length, max: LOOP_LIMITS.questionsMax })}
      </p>
      {listError && (
        <p role="alert" className="text-sm text-red-700">
          {say(listError)}
        </p>
      )}
      <ol className="flex flex-col gap-4">
        {fields.map((field, index) => {
          const number = index + 1;
          const kind = questions?.[index]?.kind ?? field.kind;
          const error = errors.questions?.[index] as
            | {
                text?: { message?: string };
                lowLabel?: { message?: string };
                highLabel?: { message?: string };
              }
            | undefined;
          return (
            <li key={field.fieldKey}>
              <fieldset className="rounded-xl border border-slate-200 bg-white p-4">
                <legend className="px-1 text-sm font-semibold text-slate-900">
                  {t('loopForm.questionNumber', { number })}
                </legend>
                <div className="flex flex-col gap-3">
                  <FormField label={t('loopForm.wording')} error={sayError(error?.text?.message)}>
                    <Input maxLength={LOOP_LIMITS.questionMax} {...register(`questions.${index}.text`)} />
                  </FormField>
                  <FormField label={t('loopForm.kind')}>
                    <Select
                      value={kind}
                      onChange={(event) =>
                        update(
                          index,
                          questionOfKind(
                            event.target.value as QuestionKind,
                            form.getValues(`questions.${index}`),
                          ),
                        )
                      }
                    >
                      {QUESTION_KINDS.map((value) => (
                        <option key={value} value={value}>
                          {say(QUESTION_KIND_LABELS[value])}
                        </option>
                      ))}
                    </Select>
                  </FormField>
                  {kind === 'scale' && (
                    <div className="grid gap-3 sm:grid-cols-2">
                      <FormField label={t('loopForm.lowLabel')} error={sayError(error?.lowLabel?.message)}>
                        <Input
                          maxLength={LOOP_LIMITS.scaleLabelMax}
                          {...register(`questions.${index}.lowLabel`)}
                        />
                      </FormField>
                      <FormField label={t('loopForm.highLabel')} error={sayError(error?.highLabel?.message)}>
                        <Input
                          maxLength={LOOP_LIMITS.scaleLabelMax}
                          {...register(`questions.${index}.highLabel`)}
                        />
                      </FormField>
                    </div>
                  )}
                  {kind === 'enps' && (
                    <p className="text-xs text-slate-600">
                      {t('loopForm.enpsHint', { low: say(ENPS_LABELS.low), high: say(ENPS_LABELS.high) })}
                    </p>
                  )}
                  {kind === 'text' && <p className="text-xs text-slate-600">{t('loopForm.textHint')}</p>}
                  <QuestionTranslations form={form} index={index} kind={kind} />
                  <div className="flex flex-wrap gap-2">
                    <Button
                      id={`question-${field.fieldKey}-up`}
                      size="sm"
                      variant="secondary"
                      aria-label={t('loopForm.moveUp', { number })}
                      disabled={index === 0}
                      onClick={() => {
                        move(index, index - 1);
                        moved.current = { key: field.fieldKey, direction: 'up' };
                      }}
                    >
                      <ArrowUp aria-hidden="true" />
                      {t('loopForm.up')}
                    </Button>
                    <Button
                      id={`question-${field.fieldKey}-down`}
                      size="sm"
                      variant="secondary"
                      aria-label={t('loopForm.moveDown', { number })}
                      disabled={index === fields.length - 1}
                      onClick={() => {
                        move(index, index + 1);
                        moved.current = { key: field.fieldKey, direction: 'down' };
                      }}
                    >
                      <ArrowDown aria-hidden="true" />
                      {t('loopForm.down')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t('loopForm.removeQuestion', { number })}
                      disabled={fields.length <= LOOP_LIMITS.questionsMin}
                      onClick={() => remove(index)}
                    >
                      <Trash2 aria-hidden="true" />
                      {t('common.remove')}
                    </Button>
                  </div>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <Button
        variant="secondary"
        className="self-start"
        disabled={fields.length >= LOOP_LIMITS.questionsMax}
        onClick={() => append(questionOfKind('scale'), { shouldFocus: true })}
      >
        <Plus aria-hidden="true" />
        {t('loopForm.addQuestion')}
      </Button>
    </div>
  );
}
