import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { Mail, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { say, t } from '@/lib/i18n';

/** Configure's Team tab: the addresses that are e-mailed the join link at launch (or, with e-mail off, not). */
export function TeamEmails({
  emails,
  onChange,
  mailEnabled,
}: {
  emails: string[];
  onChange: (emails: string[]) => void;
  mailEnabled: boolean;
}) {
  const [draft, setDraft] = useState('');
  const add = (event: FormEvent) => {
    event.preventDefault();
    const email = draft.trim();
    if (!email) return;
    onChange([...emails, email]);
    setDraft('');
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{t('healthChecks.tabTeam')}</CardTitle>
        <CardDescription>
          {mailEnabled ? t('healthChecks.teamHint') : say(HEALTH_CHECK_MESSAGES.teamMailOff)}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form onSubmit={add} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <FormField label={t('healthChecks.teamMemberEmail')}>
              <Input
                type="email"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                placeholder={t('healthChecks.emailPlaceholder')}
              />
            </FormField>
          </div>
          <Button type="submit" variant="secondary">
            {t('common.add')}
          </Button>
        </form>
        {emails.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
            {t('healthChecks.noTeamMembers')}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100" aria-label={t('healthChecks.teamMembers')}>
            {emails.map((email, index) => (
              <li key={`${email}-${index}`} className="flex items-center justify-between gap-2 py-2 text-sm">
                <span className="flex min-w-0 items-center gap-2">
                  <Mail className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
                  <span className="truncate">{email}</span>
                  <Badge>{t('healthChecks.memberBadge')}</Badge>
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('healthChecks.removeEmail', { email })}
                  onClick={() => onChange(emails.filter((_, i) => i !== index))}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
