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

export type LoopForm = UseFormReturn<LaunchLoopInput, unknown, LaunchLoop>;

/** A new question of `kind`, keeping the wording already written (and its id: a kind change is an edit). */
export function questionOfKind(kind: QuestionKind, from?: Partial<LoopQuestion>): LoopQuestion {
  const base = { ...(from?.id ? { id: from.id } : {}), text: from?.text ?? '' };
  if (kind === 'scale') {
    return {
      ...base,
      kind,
      lowLabel: from && 'lowLabel' in from && from.lowLabel ? from.lowLabel : DEFAULT_SCALE_LABELS.low,
      highLabel: from && 'highLabel' in from && from.highLabel ? from.highLabel : DEFAULT_SCALE_LABELS.high,
    };
  }
  return { ...base, kind };
}

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
        {fields.length} of {LOOP_LIMITS.questionsMax} questions
      </p>
      {listError && (
        <p role="alert" className="text-sm text-red-700">
          {listError}
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
                <legend className="px-1 text-sm font-semibold text-slate-900">Question {number}</legend>
                <div className="flex flex-col gap-3">
                  <FormField label="Wording" error={error?.text?.message}>
                    <Input maxLength={LOOP_LIMITS.questionMax} {...register(`questions.${index}.text`)} />
                  </FormField>
                  <FormField label="Kind">
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
                          {QUESTION_KIND_LABELS[value]}
                        </option>
                      ))}
                    </Select>
                  </FormField>
                  {kind === 'scale' && (
                    <div className="grid gap-3 sm:grid-cols-2">
                      <FormField label="Label of 1 (low end)" error={error?.lowLabel?.message}>
                        <Input
                          maxLength={LOOP_LIMITS.scaleLabelMax}
                          {...register(`questions.${index}.lowLabel`)}
                        />
                      </FormField>
                      <FormField label="Label of 5 (high end)" error={error?.highLabel?.message}>
                        <Input
                          maxLength={LOOP_LIMITS.scaleLabelMax}
                          {...register(`questions.${index}.highLabel`)}
                        />
                      </FormField>
                    </div>
                  )}
                  {kind === 'enps' && (
                    <p className="text-xs text-slate-600">
                      Scored from 0 ({ENPS_LABELS.low}) to 10 ({ENPS_LABELS.high}).
                    </p>
                  )}
                  {kind === 'text' && <p className="text-xs text-slate-600">People may leave it empty.</p>}
                  <div className="flex flex-wrap gap-2">
                    <Button
                      id={`question-${field.fieldKey}-up`}
                      size="sm"
                      variant="secondary"
                      aria-label={`Move question ${number} up`}
                      disabled={index === 0}
                      onClick={() => {
                        move(index, index - 1);
                        moved.current = { key: field.fieldKey, direction: 'up' };
                      }}
                    >
                      <ArrowUp aria-hidden="true" />
                      Up
                    </Button>
                    <Button
                      id={`question-${field.fieldKey}-down`}
                      size="sm"
                      variant="secondary"
                      aria-label={`Move question ${number} down`}
                      disabled={index === fields.length - 1}
                      onClick={() => {
                        move(index, index + 1);
                        moved.current = { key: field.fieldKey, direction: 'down' };
                      }}
                    >
                      <ArrowDown aria-hidden="true" />
                      Down
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove question ${number}`}
                      disabled={fields.length <= LOOP_LIMITS.questionsMin}
                      onClick={() => remove(index)}
                    >
                      <Trash2 aria-hidden="true" />
                      Remove
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
        Add Question
      </Button>
    </div>
  );
}
