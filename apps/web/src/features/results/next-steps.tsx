import { defaultFollowUpDate } from '@pulsecheck/shared/results/rules';
import type { ResultsResponse } from '@pulsecheck/shared/results/schemas';
import { useMutation } from '@tanstack/react-query';
import { CalendarPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { TOAST, toast } from '@/components/ui/toaster';
import { formatDay } from '@/lib/dates';
import { applyServerErrors } from '@/lib/forms';
import { say, t, tRich } from '@/lib/i18n';
import { lazyResolver } from '@/lib/lazy-resolver';
import { calendarUrl, scheduleFollowUp } from './api';

// The date is checked by the shared schema, whose code (zod) loads when the form gets focus or is submitted.
const followUpValidation = lazyResolver<{ date: string }>(async () => {
  const [{ zodResolver }, { followUpRequestSchema }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('@pulsecheck/shared/results/schemas'),
  ]);
  return zodResolver(followUpRequestSchema);
});

export function NextSteps({ data, inAdmin }: { data: ResultsResponse; inAdmin: boolean }) {
  const manages = data.viewer.manages;
  const [scheduled, setScheduled] = useState<string | null>(data.followUp?.date ?? null);
  const [failure, setFailure] = useState<string | null>(null);
  const inputId = useId();
  const form = useForm({
    resolver: followUpValidation.resolver,
    defaultValues: { date: data.followUp?.date ?? defaultFollowUpDate(new Date()) },
    // The message is announced where it shows (role="alert"); focus stays on the button that was pressed.
    shouldFocusError: false,
    reValidateMode: 'onSubmit',
  });
  const date = useWatch({ control: form.control, name: 'date' });
  const schedule = useMutation({
    mutationFn: (day: string) => scheduleFollowUp(data.healthCheck.id, day),
    onSuccess: (result) => {
      setScheduled(result.date);
      setFailure(null);
      toast.success(t('results.nextSteps.scheduledToast', { date: formatDay(result.date) }), {
        duration: TOAST.save,
      });
    },
    onError: (e) => setFailure(applyServerErrors(e, form, t('results.nextSteps.scheduleFailed'))),
  });
  const onSubmit = form.handleSubmit((values) => schedule.mutate(values.date));
  const shown = form.formState.errors.date?.message ?? failure;
  const error = shown ? say(shown) : shown;
  return (
    <Card data-print-hide>
      <CardHeader>
        <CardTitle>{t('results.nextSteps.title')}</CardTitle>
        <CardDescription>{t('results.nextSteps.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {manages && (
          <form
            className="flex flex-col gap-2 sm:flex-row sm:items-end"
            onSubmit={(event) => void onSubmit(event)}
          >
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={inputId}>{t('results.nextSteps.date')}</Label>
              <Input
                id={inputId}
                type="date"
                {...form.register('date')}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-error` : undefined}
                className="sm:w-48"
              />
            </div>
            <Button type="submit" disabled={schedule.isPending || !date}>
              <CalendarPlus aria-hidden="true" />
              {schedule.isPending ? t('results.nextSteps.scheduling') : t('results.nextSteps.schedule')}
            </Button>
          </form>
        )}
        {error && (
          <p id={`${inputId}-error`} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        {scheduled && (
          <p className="text-sm text-slate-700" data-testid="follow-up">
            {tRich('results.nextSteps.scheduled', {
              date: formatDay(scheduled),
              link: (chunks) => (
                <a
                  className="text-brand-700 underline"
                  href={calendarUrl(data.healthCheck.id, scheduled)}
                  download
                >
                  {chunks}
                </a>
              ),
            })}
          </p>
        )}
        <div>
          <Button variant="secondary" asChild>
            <Link to={inAdmin || manages ? '/admin/dashboard' : '/dashboard'}>
              {t('results.nextSteps.dashboard')}
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
