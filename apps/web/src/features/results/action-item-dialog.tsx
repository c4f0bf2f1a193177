import { zodResolver } from '@hookform/resolvers/zod';
import {
  ACTION_ITEM_MESSAGES,
  createActionItemSchema,
  matchPeople,
  type CreateActionItemInput,
  mentionQueryAt,
  type WorkspacePerson,
} from '@pulsecheck/shared/action-items/schemas';
import type { ActionItem, ComponentResult } from '@pulsecheck/shared/results/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Label } from '@/components/ui/label';
import { TOAST, toast } from '@/components/ui/toaster';
import { applyServerErrors } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { createActionItem, membersQuery, resultsKeys, updateActionItem } from './api';
import { statusLabels } from './component-row';

/** An empty date or choice is no value. */
const orNull = (value: string) => value || null;

/** A field's message (the shared rules' are catalogue keys) in the app's language; none stays none. */
const sayError = (message: string | undefined) => (message ? say(message) : message);

type Props = {
  healthCheckId: string;
  components: Pick<ComponentResult, 'id' | 'title'>[];
  /** The item to edit; a new one when absent. */
  item?: ActionItem;
  /** Preselected area for a new item. */
  componentId?: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** 'Add Action Item' (and edit): description with @mentions of real workspace members, owner, due date, status. */
export function ActionItemDialog(props: Props) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      {props.open && (
        <DialogContent
          title={props.item ? t('results.actionItem.edit') : t('results.actionItem.add')}
          description={t('results.actionItem.dialogDescription')}
        >
          <ActionItemForm {...props} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function ActionItemForm({ healthCheckId, components, item, componentId, onOpenChange }: Props) {
  const queryClient = useQueryClient();
  const members = useQuery(membersQuery(healthCheckId));
  const people = members.data ?? [];
  const form = useForm({
    resolver: zodResolver(createActionItemSchema),
    defaultValues: {
      description: item?.description ?? '',
      ownerId: item?.owner?.id ?? '',
      dueDate: item?.dueDate ?? null,
      status: item?.status ?? 'pending',
      componentId: item?.componentId ?? componentId ?? null,
      mentionedUserIds: item?.mentioned.map((person) => person.id) ?? [],
    },
    // Each message is announced where it shows (role="alert"); focus stays on the button that was pressed.
    shouldFocusError: false,
    reValidateMode: 'onSubmit',
  });
  const { register, control, setValue, getValues, formState } = form;
  const errors = formState.errors;
  const description = useController({ control, name: 'description' });
  // Controlled: the members (the options) arrive after the form, and the chosen owner must show once they do.
  const owner = useController({ control, name: 'ownerId' });
  const mentionedIds = useWatch({ control, name: 'mentionedUserIds' });
  const [failure, setFailure] = useState<string | null>(null);
  const [mention, setMention] = useState<{ query: string; start: number } | null>(null);
  const [active, setActive] = useState(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const ids = useId();
  const suggestions = mention ? matchPeople(people, mention.query).slice(0, 6) : [];
  const listOpen = mention !== null && suggestions.length > 0;
  const known = new Map([...(item?.mentioned ?? []), ...people].map((person) => [person.id, person]));
  const mentioned = (mentionedIds ?? []).flatMap((id) => known.get(id) ?? []);

  const save = useMutation({
    mutationFn: async (input: CreateActionItemInput) => {
      if (item) return updateActionItem(item.id, input);
      return createActionItem(healthCheckId, input);
    },
    onSuccess: async () => {
      toast.success(say(item ? ACTION_ITEM_MESSAGES.updated : ACTION_ITEM_MESSAGES.created), {
        duration: TOAST.save,
      });
      await queryClient.invalidateQueries({ queryKey: resultsKeys.results(healthCheckId) });
      onOpenChange(false);
    },
    onError: (error) => {
      const left = applyServerErrors(error, form, t('results.actionItem.saveFailed'));
      setFailure(left && say(left));
    },
  });
  const onSubmit = form.handleSubmit((values) => save.mutate(values));

  const onDescription = (value: string, caret: number) => {
    description.field.onChange(value);
    setMention(mentionQueryAt(value, caret));
    setActive(0);
  };

  const pick = (person: WorkspacePerson) => {
    if (!mention) return;
    // The whole typed word goes, also the part after the caret ("@Mi|ra" picked as Mira Mention leaves no "ra"),
    // and one space follows the name: the text's own when it goes on, an added one at the end.
    const text = getValues('description');
    const wordEnd = mention.start + 1 + (/^\S*/.exec(text.slice(mention.start + 1))?.[0].length ?? 0);
    const rest = text.slice(wordEnd);
    const inserted = `@${person.name}${/^\s/.test(rest) ? '' : ' '}`;
    setValue('description', `${text.slice(0, mention.start)}${inserted}${rest}`);
    setMention(null);
    const list = getValues('mentionedUserIds') ?? [];
    if (!list.includes(person.id)) setValue('mentionedUserIds', [...list, person.id]);
    const position = mention.start + person.name.length + 2;
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(position, position);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!listOpen) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => (i + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (i - 1 + suggestions.length) % suggestions.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(suggestions[active]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setMention(null);
    }
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        setFailure(null);
        void onSubmit(event);
      }}
    >
      <div className="relative flex flex-col gap-1.5">
        <Label htmlFor={`${ids}-description`}>{t('results.actionItem.description')}</Label>
        <Textarea
          ref={(element) => {
            textarea.current = element;
            description.field.ref(element);
          }}
          id={`${ids}-description`}
          value={description.field.value}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={listOpen}
          aria-controls={`${ids}-suggestions`}
          aria-activedescendant={listOpen ? `${ids}-option-${active}` : undefined}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${ids}-description-error` : undefined}
          placeholder={t('results.actionItem.descriptionPlaceholder')}
          onChange={(e) => onDescription(e.target.value, e.target.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => {
            description.field.onBlur();
            setTimeout(() => setMention(null), 150);
          }}
        />
        <ul
          id={`${ids}-suggestions`}
          role="listbox"
          aria-label={t('results.actionItem.mentionSuggestions')}
          hidden={!listOpen}
          className="absolute top-full z-10 mt-1 max-h-56 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {suggestions.map((person, index) => (
            <li
              key={person.id}
              id={`${ids}-option-${index}`}
              role="option"
              aria-selected={index === active}
              className={`cursor-pointer px-3 py-2 text-sm ${index === active ? 'bg-brand-50' : ''}`}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(person);
              }}
            >
              <span className="font-medium text-slate-900">{person.name}</span>{' '}
              <span className="text-slate-600">{person.email}</span>
            </li>
          ))}
        </ul>
        {errors.description && (
          <p id={`${ids}-description-error`} role="alert" className="text-sm text-red-700">
            {sayError(errors.description.message)}
          </p>
        )}
      </div>

      {mentioned.length > 0 && (
        <div>
          <p className="text-sm font-medium text-slate-800" id={`${ids}-mentioned`}>
            {t('results.actionItem.mentionedUsers')}
          </p>
          <ul aria-labelledby={`${ids}-mentioned`} className="mt-1 flex flex-wrap gap-2">
            {mentioned.map((person) => (
              <li
                key={person.id}
                className="flex items-center gap-1 rounded-full bg-brand-50 py-0.5 ps-3 pe-1 text-sm text-brand-800"
              >
                {person.name}
                <button
                  type="button"
                  className="rounded-full p-1 hover:bg-brand-100"
                  aria-label={t('results.actionItem.removeMention', { name: person.name })}
                  onClick={() =>
                    setValue(
                      'mentionedUserIds',
                      getValues('mentionedUserIds')?.filter((id) => id !== person.id),
                    )
                  }
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
          {errors.mentionedUserIds?.message && (
            <p className="mt-1 text-sm text-red-700">{say(errors.mentionedUserIds.message)}</p>
          )}
        </div>
      )}

      <FormField label={t('results.actionItem.ownerLabel')} error={sayError(errors.ownerId?.message)}>
        <Select {...owner.field}>
          <option value="">
            {members.isPending ? t('results.actionItem.loadingMembers') : t('results.actionItem.chooseOwner')}
          </option>
          {people.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name} ({person.email})
            </option>
          ))}
        </Select>
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t('results.actionItem.dueDate')} error={sayError(errors.dueDate?.message)}>
          <Input type="date" {...register('dueDate', { setValueAs: orNull })} />
        </FormField>
        <FormField label={t('results.actionItem.status')} error={sayError(errors.status?.message)}>
          <Select {...register('status')}>
            {Object.entries(statusLabels()).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      <FormField label={t('results.actionItem.areaLabel')} error={sayError(errors.componentId?.message)}>
        <Select {...register('componentId', { setValueAs: orNull })}>
          <option value="">{t('results.actionItem.general')}</option>
          {components.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </Select>
      </FormField>
      {failure && (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending
            ? t('results.actionItem.saving')
            : item
              ? t('results.actionItem.saveChanges')
              : t('results.actionItem.add')}
        </Button>
      </div>
    </form>
  );
}
