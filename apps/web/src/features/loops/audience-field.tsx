import type { LoopAudience } from '@pulsecheck/shared/loops/schemas';
import { displayName, matchesSearch, type Member } from '@pulsecheck/shared/team/schemas';
import { useId, useState } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { say, t } from '@/lib/i18n';

/**
 * Who a loop asks: everyone active in the workspace when each round opens, or chosen active members (membership
 * ids). The list can be long, so it has a search; chosen members stay chosen while the search hides them.
 */
export function AudienceField({
  value,
  onChange,
  members,
  error,
}: {
  value: LoopAudience;
  onChange: (next: LoopAudience) => void;
  members: { pending: boolean; error: string | null; list: Member[] };
  error?: string | undefined;
}) {
  const id = useId();
  const [query, setQuery] = useState('');
  const chosen = new Set(value.kind === 'members' ? value.memberIds : []);
  const active = members.list.filter((member) => member.status === 'active');
  const shown = active.filter((member) => matchesSearch(member, query));
  const choose = (memberId: string, on: boolean) => {
    const next = active.filter((m) => (m.id === memberId ? on : chosen.has(m.id))).map((m) => m.id);
    onChange({ kind: 'members', memberIds: next });
  };
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-800">{t('loopForm.audience')}</legend>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="radio"
          name={`${id}-audience`}
          checked={value.kind === 'all'}
          onChange={() => onChange({ kind: 'all' })}
        />
        {t('loopForm.audienceAll')}
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="radio"
          name={`${id}-audience`}
          checked={value.kind === 'members'}
          onChange={() => onChange({ kind: 'members', memberIds: [...chosen] })}
        />
        {t('loopForm.audienceChosen')}
      </label>
      {value.kind === 'members' && (
        <div className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3">
          {members.pending ? (
            <Spinner label={t('loopForm.loadingMembers')} />
          ) : members.error ? (
            <p role="alert" className="text-sm text-red-700">
              {say(members.error)}
            </p>
          ) : (
            <>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor={`${id}-search`}>{t('loopForm.searchMembers')}</Label>
                <Input
                  id={`${id}-search`}
                  type="search"
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                />
              </div>
              <p className="text-xs text-slate-600" aria-live="polite">
                {t('loopForm.membersChosen', { chosen: chosen.size, count: active.length })}
              </p>
              <ul className="flex max-h-64 flex-col gap-2 overflow-y-auto">
                {shown.map((member) => (
                  <li key={member.id} className="flex items-center gap-2">
                    <Checkbox
                      id={`${id}-${member.id}`}
                      checked={chosen.has(member.id)}
                      onCheckedChange={(on) => choose(member.id, on === true)}
                    />
                    <Label htmlFor={`${id}-${member.id}`} className="font-normal">
                      {say(displayName(member.name))} <span className="text-slate-600">({member.email})</span>
                    </Label>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {say(error)}
        </p>
      )}
      {value.kind === 'all' && <p className="text-xs text-slate-600">{t('loopForm.audienceAllHint')}</p>}
    </fieldset>
  );
}
