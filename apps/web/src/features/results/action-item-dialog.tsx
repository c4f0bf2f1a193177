import {
  ACTION_ITEM_MESSAGES,
  createActionItemSchema,
  matchPeople,
  mentionQueryAt,
  type WorkspacePerson,
} from '@pulsecheck/shared/action-items/schemas';
import { fieldErrors } from '@pulsecheck/shared/api/errors';
import type { ActionItem, ComponentResult } from '@pulsecheck/shared/results/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { TOAST, toast } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { createActionItem, membersQuery, resultsKeys, updateActionItem } from './api';

const SELECT =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 aria-[invalid=true]:border-red-600';

export const STATUS_LABELS: Record<ActionItem['status'], string> = {
  pending: 'Pending',
  'in-progress': 'In Progress',
  completed: 'Completed',
};

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
          title={props.item ? 'Edit Action Item' : 'Add Action Item'}
          description="Agree who does what by when. Type @ to mention a teammate."
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
  const [description, setDescription] = useState(item?.description ?? '');
  const [ownerId, setOwnerId] = useState(item?.owner?.id ?? '');
  const [dueDate, setDueDate] = useState(item?.dueDate ?? '');
  const [status, setStatus] = useState<ActionItem['status']>(item?.status ?? 'pending');
  const [area, setArea] = useState(item?.componentId ?? componentId ?? '');
  const [mentioned, setMentioned] = useState<WorkspacePerson[]>(item?.mentioned ?? []);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [mention, setMention] = useState<{ query: string; start: number } | null>(null);
  const [active, setActive] = useState(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const ids = useId();
  const suggestions = mention ? matchPeople(people, mention.query).slice(0, 6) : [];
  const listOpen = mention !== null && suggestions.length > 0;

  const save = useMutation({
    mutationFn: async () => {
      const input = {
        description,
        ownerId,
        dueDate: dueDate || null,
        status,
        componentId: area || null,
        mentionedUserIds: mentioned.map((p) => p.id),
      };
      const parsed = createActionItemSchema.safeParse(input);
      if (!parsed.success) throw new ApiError(400, 'invalid', 'Check the form', fieldErrors(parsed.error));
      if (item) {
        const { componentId: _unused, ...update } = input;
        return updateActionItem(item.id, update);
      }
      return createActionItem(healthCheckId, input);
    },
    onSuccess: async () => {
      toast.success(item ? ACTION_ITEM_MESSAGES.updated : ACTION_ITEM_MESSAGES.created, {
        duration: TOAST.save,
      });
      await queryClient.invalidateQueries({ queryKey: resultsKeys.results(healthCheckId) });
      onOpenChange(false);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      else setErrors({ _: error instanceof Error ? error.message : 'Could not save the action item' });
    },
  });

  const onDescription = (value: string, caret: number) => {
    setDescription(value);
    setMention(mentionQueryAt(value, caret));
    setActive(0);
  };

  const pick = (person: WorkspacePerson) => {
    if (!mention) return;
    const caret = mention.start + mention.query.length + 1;
    const next = `${description.slice(0, mention.start)}@${person.name} ${description.slice(caret)}`;
    setDescription(next);
    setMention(null);
    setMentioned((list) => (list.some((p) => p.id === person.id) ? list : [...list, person]));
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
        event.preventDefault();
        setErrors({});
        save.mutate();
      }}
    >
      <div className="relative flex flex-col gap-1.5">
        <Label htmlFor={`${ids}-description`}>Description</Label>
        <Textarea
          ref={textarea}
          id={`${ids}-description`}
          value={description}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={listOpen}
          aria-controls={`${ids}-suggestions`}
          aria-activedescendant={listOpen ? `${ids}-option-${active}` : undefined}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${ids}-description-error` : undefined}
          placeholder="What will we do? Type @ to mention someone"
          onChange={(e) => onDescription(e.target.value, e.target.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => setTimeout(() => setMention(null), 150)}
        />
        <ul
          id={`${ids}-suggestions`}
          role="listbox"
          aria-label="Mention suggestions"
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
            {errors.description}
          </p>
        )}
      </div>

      {mentioned.length > 0 && (
        <div>
          <p className="text-sm font-medium text-slate-800" id={`${ids}-mentioned`}>
            Mentioned Users
          </p>
          <ul aria-labelledby={`${ids}-mentioned`} className="mt-1 flex flex-wrap gap-2">
            {mentioned.map((person) => (
              <li
                key={person.id}
                className="flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-3 text-sm text-brand-800"
              >
                {person.name}
                <button
                  type="button"
                  className="rounded-full p-1 hover:bg-brand-100"
                  aria-label={`Remove ${person.name}`}
                  onClick={() => setMentioned((list) => list.filter((p) => p.id !== person.id))}
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
          {errors.mentionedUserIds && <p className="mt-1 text-sm text-red-700">{errors.mentionedUserIds}</p>}
        </div>
      )}

      <FormField label="Owner" error={errors.ownerId}>
        <select className={SELECT} value={ownerId} onChange={(e) => setOwnerId(e.target.value)}>
          <option value="">{members.isPending ? 'Loading members...' : 'Choose an owner'}</option>
          {people.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name} ({person.email})
            </option>
          ))}
        </select>
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Due date" error={errors.dueDate}>
          <Input type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} />
        </FormField>
        <FormField label="Status" error={errors.status}>
          <select
            className={SELECT}
            value={status}
            onChange={(e) => setStatus(e.target.value as ActionItem['status'])}
          >
            {Object.entries(STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      {!item && (
        <FormField label="Area" error={errors.componentId}>
          <select className={SELECT} value={area} onChange={(e) => setArea(e.target.value)}>
            <option value="">General (no specific area)</option>
            {components.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </FormField>
      )}
      {errors._ && (
        <p role="alert" className="text-sm text-red-700">
          {errors._}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : item ? 'Save Changes' : 'Add Action Item'}
        </Button>
      </div>
    </form>
  );
}
