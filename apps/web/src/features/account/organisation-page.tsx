import { OrganizationLanguageCard } from '@/components/language-settings';
import {
  accentColorMessage,
  BRANDING_MESSAGES,
  HEX_COLOR,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  type Branding,
} from '@pulsecheck/shared/branding/rules';
import { ImageUp, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { accentProperties } from '@/components/branding/branding';
import { Button, SubmitButton } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed } from '@/components/ui/state-card';
import { toast, TOAST } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/forms';
import { cn } from '@/lib/cn';
import { say, t } from '@/lib/i18n';
import { useOrganizationBranding, useRemoveLogo, useSaveAccentColor, useUploadLogo } from './branding-api';
import { SettingsFrame } from './settings-frame';

/**
 * /admin/account-settings/organisation: the organisation's settings for its owner and organisation admins: its
 * branding (issue 32 item 10) and what the screen composing this adds below it (organisation-wide webhooks). The
 * server decides who may (`organization:administer`); anyone else is told so.
 */
export function OrganisationPage({ children }: { children?: ReactNode }) {
  return (
    <SettingsFrame section="organisation">
      <OrganisationContent>{children}</OrganisationContent>
    </SettingsFrame>
  );
}

/** What anyone else is told (a function: `t` is not ready at import). */
export const organisationOnly = () => t('accountOrganisation.onlyAdmins');

function OrganisationContent({ children }: { children?: ReactNode }) {
  const branding = useOrganizationBranding();
  if (branding.isPending) return <Spinner label={t('accountOrganisation.loading')} className="py-12" />;
  if (branding.isError) {
    const status = branding.error instanceof ApiError ? branding.error.status : 0;
    if (status === 403 || status === 404) return <Notice tone="info">{organisationOnly()}</Notice>;
    return (
      <LoadFailed
        title={t('accountOrganisation.loadFailed')}
        message={errorMessage(branding.error, '')}
        onRetry={() => void branding.refetch()}
      />
    );
  }
  return (
    <div className="space-y-6">
      <BrandingCard branding={branding.data.branding} />
      <OrganizationLanguageCard />
      {children}
    </div>
  );
}

function BrandingCard({ branding }: { branding: Branding }) {
  return (
    <SectionCard
      title={t('accountOrganisation.brandingTitle')}
      description={t('accountOrganisation.brandingDescription', { organisation: branding.organizationName })}
      contentClassName="space-y-8"
    >
      <LogoField branding={branding} />
      <AccentColorForm branding={branding} />
    </SectionCard>
  );
}

function LogoField({ branding }: { branding: Branding }) {
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    // Checked here to save a wasted upload; the server checks the bytes again.
    if (file.size > LOGO_MAX_BYTES) setProblem(say(BRANDING_MESSAGES.logoTooLarge));
    else if (!(LOGO_TYPES as readonly string[]).includes(file.type))
      setProblem(say(BRANDING_MESSAGES.logoType));
    else {
      try {
        await upload.mutateAsync(file);
        toast.success(t('accountOrganisation.logoSaved'), { duration: TOAST.save });
      } catch (error) {
        setProblem(errorMessage(error, t('accountOrganisation.logoSaveFailed')));
      }
    }
    if (input.current) input.current.value = '';
  };
  const busy = upload.isPending || remove.isPending;
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <h3 id={`${id}-heading`} className="text-sm font-semibold text-slate-900">
        {t('accountOrganisation.logo')}
      </h3>
      <div className="flex min-h-16 items-center rounded-lg border border-dashed border-slate-300 bg-slate-50 p-3">
        {branding.logoUrl ? (
          <img
            src={branding.logoUrl}
            alt={t(BRANDING_MESSAGES.logoAlt, { organization: branding.organizationName })}
            data-testid="branding-logo-preview"
            className="h-12 w-auto max-w-[200px] object-contain"
          />
        ) : (
          <p className="text-sm text-slate-600">{t('accountOrganisation.noLogo')}</p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <label
          htmlFor={id}
          className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-within:outline-2 focus-within:outline-brand-600"
        >
          <ImageUp className="size-4" aria-hidden="true" />
          {upload.isPending
            ? t('accountOrganisation.uploading')
            : branding.logoUrl
              ? t('accountOrganisation.replaceLogo')
              : t('accountOrganisation.uploadLogo')}
          <input
            ref={input}
            id={id}
            type="file"
            accept={LOGO_TYPES.join(',')}
            aria-describedby={`${id}-hint`}
            className="sr-only"
            disabled={busy}
            onChange={(event) => void onFile(event.target.files?.[0])}
          />
        </label>
        {branding.logoUrl && (
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () =>
                  toast.success(t('accountOrganisation.logoRemoved'), { duration: TOAST.save }),
                onError: (error) =>
                  setProblem(errorMessage(error, t('accountOrganisation.logoRemoveFailed'))),
              })
            }
          >
            <Trash2 aria-hidden="true" />
            {remove.isPending ? t('accountOrganisation.removing') : t('accountOrganisation.removeLogo')}
          </Button>
        )}
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {t('accountOrganisation.logoHint', {
          alt: t(BRANDING_MESSAGES.logoAlt, { organization: branding.organizationName }),
        })}
      </p>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
    </section>
  );
}

const FALLBACK_PICKER = '#4f46e5';

function AccentColorForm({ branding }: { branding: Branding }) {
  const save = useSaveAccentColor();
  const id = useId();
  const [value, setValue] = useState(branding.accentColor ?? '');
  const [saved, setSaved] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const hex = value.trim().toLowerCase();
  const check = accentColorMessage(value);
  const valid = HEX_COLOR.test(hex) && check.ok;
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setServerError(null);
    if (!check.ok) return;
    try {
      await save.mutateAsync(hex === '' ? null : hex);
      setSaved(true);
      toast.success(say(BRANDING_MESSAGES.saved), { duration: TOAST.save });
    } catch (error) {
      const field = error instanceof ApiError ? error.fields?.accentColor : undefined;
      setServerError(field ?? errorMessage(error, t('accountOrganisation.brandingSaveFailed')));
    }
  };
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-3">
      <h3 className="text-sm font-semibold text-slate-900">{t('accountOrganisation.accentColour')}</h3>
      <p className="text-xs text-slate-600">{t('accountOrganisation.accentColourHelp')}</p>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-picker`}>{t('accountOrganisation.accentColourPicker')}</Label>
          <input
            id={`${id}-picker`}
            type="color"
            value={HEX_COLOR.test(hex) ? hex : (branding.accentColor ?? FALLBACK_PICKER)}
            onChange={(event) => {
              setValue(event.target.value);
              setSaved(false);
            }}
            className="h-10 w-16 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
          />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <Label htmlFor={`${id}-hex`}>{t('accountOrganisation.accentColourHex')}</Label>
          <Input
            id={`${id}-hex`}
            value={value}
            placeholder="#1d4ed8"
            spellCheck={false}
            autoComplete="off"
            maxLength={7}
            aria-invalid={!check.ok || Boolean(serverError) ? true : undefined}
            aria-describedby={`${id}-contrast`}
            onChange={(event) => {
              setValue(event.target.value);
              setSaved(false);
              setServerError(null);
            }}
            className="max-w-48 font-mono"
          />
        </div>
      </div>
      <p
        id={`${id}-contrast`}
        aria-live="polite"
        data-testid="contrast-message"
        className={cn('text-sm', check.ok ? 'text-green-800' : 'text-red-700')}
      >
        {serverError ?? say(check.message)}
      </p>
      <div className="flex flex-wrap items-center gap-3" aria-hidden="true">
        <span className="text-xs text-slate-600">{t('accountOrganisation.preview')}</span>
        <span
          style={valid ? accentProperties(hex) : undefined}
          className="inline-flex h-10 items-center rounded-lg bg-[var(--accent,var(--color-brand-600))] px-4 text-sm font-medium text-white"
        >
          {t('accountOrganisation.previewButton')}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={save.isPending} busy={t('accountOrganisation.saving')} disabled={!check.ok}>
          {t('accountOrganisation.saveBranding')}
        </SubmitButton>
        <p role="status" className="text-sm text-green-800">
          {saved ? say(BRANDING_MESSAGES.saved) : ''}
        </p>
      </div>
    </form>
  );
}
