import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_SETTINGS,
  DEFAULT_TITLE,
  launchSchema,
  type LaunchResponse,
} from '@pulsecheck/shared/health-checks/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import {
  groupByCategory,
  RATING_OPTIONS,
  TEMPLATE_MESSAGES,
  type SaveHealthCheckTemplate,
  type TemplateDetail,
} from '@pulsecheck/shared/templates/schemas';
import type { Workspace } from '@pulsecheck/shared/workspaces/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, type LucideProps, Rocket, Save } from 'lucide-react';
import { forwardRef, useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { IconLink } from '@/components/ui/icon-link';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { TOAST, toast } from '@/components/ui/toaster';
import { ApiError, apiPost } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { applyServerErrors, newFormKey } from '@/lib/forms';
import { formats, say, t, tRich } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { TemplateTextDialog } from '@/lib/template-text-dialog';
import { useActiveWorkspace, workspacesQuery } from '@/lib/workspaces';
import { useLaunch, useTemplate } from './api';
import { SettingsFields } from './settings-fields';
import { ShareDialog } from './share-dialog';
import { TeamEmails } from './team-emails';
import { FollowUpActions } from './follow-up-actions';

/** 'Back': an arrow pointing where reading came from (mirrored in a right-to-left language). */
const BackArrow = forwardRef<SVGSVGElement, LucideProps>(function BackArrow({ className, ...props }, ref) {
  return <ArrowLeft ref={ref} className={cn(className, 'rtl:rotate-180')} {...props} />;
});

/** /admin/configure-health-check/{templateId} and /admin/templates/{templateId}/configure. */
export function ConfigurePage() {
  const { templateId = 'new' } = useParams();
  const workspace = useActiveWorkspace();
  const template = useTemplate(templateId);

  const noWorkspace = workspace.isSuccess && !workspace.data;
  useEffect(() => {
    if (noWorkspace) toast.error(say(HEALTH_CHECK_MESSAGES.selectWorkspaceFirst));
  }, [noWorkspace]);

  // No active workspace (none chosen, or every one left or deleted): the spec's redirect, with its toast.
  if (noWorkspace) return <Navigate to="/admin/workspaces" replace />;
  if (workspace.isPending || template.isPending) {
    return <Spinner label={say(HEALTH_CHECK_MESSAGES.loadingTemplate)} className="py-16" />;
  }
  if (workspace.isError || template.isError || !workspace.data) {
    const error = template.error ?? workspace.error;
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <Card className="mx-auto max-w-md p-8 text-center">
        <h1 className="text-lg font-semibold">
          {notFound ? t('healthChecks.templateNotFound') : t('healthChecks.templateLoadFailed')}
        </h1>
        <p className="mt-2 text-sm text-slate-600">
          {notFound ? t('healthChecks.templateNotFoundText') : error?.message}
        </p>
        <Button className="mt-4" asChild>
          <Link to="/admin/templates">{t('healthChecks.backToTemplates')}</Link>
        </Button>
      </Card>
    );
  }
  return (
    <ConfigureForm
      key={template.data.id}
      template={template.data}
      workspace={workspace.data}
      isNew={templateId === 'new'}
    />
  );
}

// The form's part of the launch request; the workspace, template and launch key are the screen's.
const launchFormSchema = launchSchema
  .pick({ title: true, description: true, settings: true, enabledComponentIds: true, teamEmails: true })
  .extend({
    enabledComponentIds: launchSchema.shape.enabledComponentIds.min(
      1,
      HEALTH_CHECK_MESSAGES.noEnabledComponents,
    ),
  });

/** A field's message: a shared rule's key in the app's language, or the server's text as it came. */
const sayError = (message: string | undefined) => (message === undefined ? undefined : say(message));

/** The first message of a form's errors, in the order of its fields. */
function firstMessage(errors: object): string | undefined {
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    if (key === 'ref' || !value || typeof value !== 'object') continue;
    if ('message' in value && typeof value.message === 'string') return value.message;
    const nested = firstMessage(value);
    if (nested) return nested;
  }
  return undefined;
}

function ConfigureForm({
  template,
  workspace,
  isNew,
}: {
  template: TemplateDetail;
  workspace: Workspace;
  isNew: boolean;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const launch = useLaunch();
  const [savingTemplate, setSavingTemplate] = useState(false);
  const [launchKey] = useState(newFormKey);
  const [leaveOut, setLeaveOut] = useState<ReadonlySet<string>>(() => new Set());
  const mailEnabled = useSession().data?.mailEnabled ?? true;
  const [tab, setTab] = useState('components');
  const form = useForm({
    resolver: zodResolver(launchFormSchema),
    // A workspace's own template starts from its name, description and settings; the global ones from the defaults.
    defaultValues: {
      title: template.isGlobal ? t(DEFAULT_TITLE) : template.title,
      description: template.isGlobal ? t(DEFAULT_DESCRIPTION) : (template.description ?? ''),
      settings: template.settings ?? DEFAULT_SETTINGS,
      enabledComponentIds: template.components.filter((c) => c.enabled).map((c) => c.id),
      teamEmails: [],
    },
    // The banner announces the first message (role="alert"): its field may be on a tab that is not shown.
    shouldFocusError: false,
    reValidateMode: 'onSubmit',
  });
  const { control, register, getValues, setValue, formState } = form;
  const errors = formState.errors;
  const [title, enabledIds, teamEmails, minResponses] = useWatch({
    control,
    name: ['title', 'enabledComponentIds', 'teamEmails', 'settings.minResponses'],
  });
  const enabled = new Set(enabledIds);
  const emails = teamEmails ?? [];
  const [banner, setBanner] = useState<string | null>(null);
  const [launched, setLaunched] = useState<LaunchResponse | null>(null);
  const [sharing, setSharing] = useState(false);

  const groups = groupByCategory(template.components);

  const toggle = (id: string, on: boolean) => {
    const current = new Set(getValues('enabledComponentIds'));
    setValue(
      'enabledComponentIds',
      template.components.filter((c) => (c.id === id ? on : current.has(c.id))).map((c) => c.id),
    );
  };

  const submit = form.handleSubmit(
    (values) =>
      launch.mutate(
        {
          ...values,
          workspaceId: workspace.id,
          templateId: template.id,
          launchKey,
          leaveOutActionItemIds: [...leaveOut],
        },
        {
          onSuccess: (result) => {
            setLaunched(result);
            setSharing(true);
            if (result.mail === 'off' && values.teamEmails.length > 0) {
              toast.error(say(HEALTH_CHECK_MESSAGES.teamNotEmailed));
            }
            if (result.failedEmails.length > 0) {
              toast.error(t('healthChecks.notInvited', { emails: formats().list(result.failedEmails) }));
            }
          },
          onError: (error) => {
            // The workspace is not (or no longer) one the user may launch in (spec sections 4 and 8): with no
            // active workspace left, 'select a workspace'; otherwise the server's membership refusal. Either way
            // a toast, and the Workspaces screen to choose one.
            if (error instanceof ApiError && error.code === 'workspace_not_found') {
              void queryClient.fetchQuery({ ...workspacesQuery, staleTime: 0 }).then(
                (data) => {
                  const active = data.workspaces.some((w) => w.id === data.activeWorkspaceId);
                  toast.error(
                    say(
                      active
                        ? HEALTH_CHECK_MESSAGES.membershipRequired
                        : HEALTH_CHECK_MESSAGES.selectWorkspace,
                    ),
                  );
                  void navigate('/admin/workspaces');
                },
                () => setBanner(HEALTH_CHECK_MESSAGES.membershipRequired),
              );
              return;
            }
            applyServerErrors(error, form, say(HEALTH_CHECK_MESSAGES.launchFailed));
            // The banner says it on every tab, whichever tab holds the fields.
            setBanner(
              error instanceof ApiError && error.code !== 'internal' && error.code !== 'network'
                ? error.message
                : HEALTH_CHECK_MESSAGES.launchFailed,
            );
          },
        },
      ),
    (found) => setBanner(firstMessage(found) ?? HEALTH_CHECK_MESSAGES.launchFailed),
  );

  return (
    <div className="flex flex-col gap-6">
      <div>
        <IconLink to="/admin/templates" icon={BackArrow}>
          {t('healthChecks.backToTemplates')}
        </IconLink>
        <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold text-slate-900">
              {isNew ? t('healthChecks.createTitle') : t('healthChecks.configureTitle')}
            </h1>
            <p className="mt-1 text-sm break-words text-slate-600">
              {tRich('healthChecks.configureSubtitle', {
                workspace: workspace.name,
                template: template.title,
                name: (chunks) => <span className="font-medium text-slate-800">{chunks}</span>,
              })}
            </p>
          </div>
          <Button variant="secondary" className="self-start" onClick={() => setSavingTemplate(true)}>
            <Save aria-hidden="true" />
            {say(TEMPLATE_MESSAGES.saveAsTemplate)}
          </Button>
        </div>
      </div>
      {savingTemplate && (
        <TemplateTextDialog
          title={say(TEMPLATE_MESSAGES.saveAsTemplate)}
          submitLabel={t('healthChecks.saveTemplate')}
          initial={{ title: getValues('title'), description: getValues('description') }}
          onClose={() => setSavingTemplate(false)}
          onSave={async (text) => {
            await apiPost('/templates/health-checks', {
              ...text,
              workspaceId: workspace.id,
              templateId: template.id,
              settings: getValues('settings'),
              enabledComponentIds: getValues('enabledComponentIds'),
            } satisfies SaveHealthCheckTemplate);
            toast.success(say(TEMPLATE_MESSAGES.saved), { duration: TOAST.save });
            await queryClient.invalidateQueries({ queryKey: ['templates'] });
          }}
        />
      )}

      {banner && (
        <Notice tone="error" onDismiss={() => setBanner(null)}>
          {say(banner)}
        </Notice>
      )}

      <Card>
        <CardContent className="flex flex-col gap-4 pt-6">
          <FormField label={t('healthChecks.title')} error={sayError(errors.title?.message)}>
            <Input maxLength={200} {...register('title')} />
          </FormField>
          <FormField label={t('healthChecks.description')} error={sayError(errors.description?.message)}>
            <Textarea maxLength={2000} {...register('description')} />
          </FormField>
        </CardContent>
      </Card>

      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label={t('healthChecks.configureTabs')}>
          <TabsTrigger value="components">{t('healthChecks.tabComponents')}</TabsTrigger>
          <TabsTrigger value="team">{t('healthChecks.tabTeam')}</TabsTrigger>
          <TabsTrigger value="settings">{t('healthChecks.tabSettings')}</TabsTrigger>
          <TabsTrigger value="launch">{t('healthChecks.tabLaunch')}</TabsTrigger>
        </TabsList>

        <TabsContent value="components">
          <div className="grid gap-6 lg:grid-cols-[1fr_280px]">
            <div className="flex flex-col gap-4">
              <p className="text-sm text-slate-600" aria-live="polite">
                {t('healthChecks.componentsEnabled', {
                  enabled: formats().number(enabled.size),
                  total: formats().number(template.components.length),
                })}
              </p>
              {errors.enabledComponentIds?.message && (
                <p role="alert" className="text-sm text-red-700">
                  {say(errors.enabledComponentIds.message)}
                </p>
              )}
              {groups.map(({ category, items }) => (
                <Card key={category}>
                  <CardHeader>
                    <CardTitle className="text-base">{say(category)}</CardTitle>
                  </CardHeader>
                  <CardContent>
                    <ul className="flex flex-col divide-y divide-slate-100">
                      {items.map((component) => (
                        <li key={component.id} className="flex items-start justify-between gap-4 py-3">
                          <div className="min-w-0">
                            <Label htmlFor={`component-${component.id}`}>{component.title}</Label>
                            {component.description && (
                              <p className="text-xs text-slate-600">{component.description}</p>
                            )}
                          </div>
                          <Switch
                            id={`component-${component.id}`}
                            checked={enabled.has(component.id)}
                            onCheckedChange={(on) => toggle(component.id, on)}
                          />
                        </li>
                      ))}
                    </ul>
                  </CardContent>
                </Card>
              ))}
            </div>
            <Card className="h-fit">
              <CardHeader>
                <CardTitle className="text-base">{t('healthChecks.ratingOptions')}</CardTitle>
                <CardDescription>{t('healthChecks.ratingOptionsHint')}</CardDescription>
              </CardHeader>
              <CardContent>
                <dl className="flex flex-col gap-2 text-sm">
                  {RATING_OPTIONS.map((option) => (
                    <div key={option.value}>
                      <dt className="font-medium text-slate-900">{say(option.label)}</dt>
                      <dd className="text-slate-600">{say(option.meaning)}</dd>
                    </div>
                  ))}
                </dl>
              </CardContent>
            </Card>
          </div>
        </TabsContent>

        <TabsContent value="team">
          <TeamEmails
            emails={emails}
            onChange={(next) => setValue('teamEmails', next)}
            mailEnabled={mailEnabled}
          />
        </TabsContent>

        <TabsContent value="settings">
          <Card>
            <CardContent className="pt-6">
              <SettingsFields form={form} name={(key) => `settings.${key}`} />
            </CardContent>
          </Card>
        </TabsContent>

        <TabsContent value="launch" className="flex flex-col gap-4">
          <FollowUpActions
            workspaceId={workspace.id}
            componentKeys={template.components.filter((c) => enabled.has(c.id)).map((c) => c.key)}
            leaveOut={leaveOut}
            onLeaveOutChange={(id, leftOut) =>
              setLeaveOut((previous) => {
                const next = new Set(previous);
                if (leftOut) next.add(id);
                else next.delete(id);
                return next;
              })
            }
          />
          <Card>
            <CardHeader>
              <CardTitle className="text-base">{t('healthChecks.readyToLaunch')}</CardTitle>
              <CardDescription>
                {t('healthChecks.launchSummary', {
                  components: enabled.size,
                  emails: emails.length,
                  minimum: Number.isNaN(minResponses) ? '' : formats().number(minResponses),
                })}
              </CardDescription>
            </CardHeader>
            <CardContent className="flex flex-wrap gap-3">
              {launched ? (
                <>
                  <Button onClick={() => setSharing(true)}>{t('healthChecks.share')}</Button>
                  <Button variant="secondary" asChild>
                    <Link to={`/admin/health-check/${launched.id}/manage`}>{t('healthChecks.manage')}</Link>
                  </Button>
                </>
              ) : (
                <Button
                  onClick={(event) => {
                    setBanner(null);
                    void submit(event);
                  }}
                  disabled={launch.isPending}
                >
                  <Rocket aria-hidden="true" />
                  {launch.isPending ? t('healthChecks.launching') : t('healthChecks.launch')}
                </Button>
              )}
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>

      {launched && (
        <ShareDialog
          open={sharing}
          onOpenChange={setSharing}
          healthCheckId={launched.id}
          title={title}
          joinUrl={launched.joinUrl}
          onDone={() => void navigate(`/admin/health-check/${launched.id}/manage`)}
        />
      )}
    </div>
  );
}
