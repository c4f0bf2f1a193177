import {
  DELETION_MESSAGES,
  FORMER_MEMBER,
  identityProofSchema,
  type DeletionStatus,
  type IdentityProof,
} from '@pulsecheck/shared/account/deletion';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, SubmitButton } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { LoadFailed } from '@/components/ui/state-card';
import { toast } from '@/components/ui/toaster';
import { formats, say, t } from '@/lib/i18n';
import { replaceSession, sessionQueryKey } from '@/lib/session';
import { IdentityField, proofOf, refusal, type Method, type Proofs } from './identity-proof';
import {
  deleteAccount,
  deleteOrganization,
  deletionStatusQuery,
  transferOwnership,
  useDeletionStatus,
} from './api';

type Owned = DeletionStatus['ownedOrganizations'][number];

/**
 * A dialog that asks once more before something that cannot be undone: what will happen, the proof, and a red
 * button that says exactly what it does. `extra` holds fields of its own (the organisation's name).
 */
function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busyLabel,
  proofs,
  ready = true,
  extra,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  busyLabel: string;
  proofs?: Proofs;
  ready?: boolean;
  extra?: ReactNode;
  onConfirm: (proof: IdentityProof | null) => Promise<void>;
}) {
  const [method, setMethod] = useState<Method>(proofs?.confirmWith ?? 'password');
  const [value, setValue] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState({ message: '', fieldError: '' });
  const reset = () => {
    setValue('');
    setError({ message: '', fieldError: '' });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const proof = proofs ? proofOf(method, value) : null;
    // The shared schema's own words for an empty password or a code that is not six digits.
    const checked = proof && identityProofSchema.safeParse(proof);
    if (checked && !checked.success) {
      setError({
        message: '',
        fieldError: checked.error.issues[0]?.message ?? say(DELETION_MESSAGES.deleteFailed),
      });
      return;
    }
    setPending(true);
    setError({ message: '', fieldError: '' });
    try {
      await onConfirm(proof);
      setValue('');
    } catch (failure) {
      setError(refusal(failure, method));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
    >
      <DialogContent title={title} description={description}>
        <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
          {extra}
          {proofs && (
            <IdentityField
              proofs={proofs}
              method={method}
              onMethod={(next) => {
                setMethod(next);
                reset();
              }}
              value={value}
              onValue={setValue}
              error={error.fieldError}
            />
          )}
          {error.message && !error.fieldError && (
            <p role="alert" className="text-sm text-red-700">
              {error.message}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <SubmitButton variant="danger" pending={pending} busy={busyLabel} disabled={!ready}>
              {confirmLabel}
            </SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** An organisation the person owns: hand it to another admin, or delete it. */
function OwnedOrganization({ org, proofs }: { org: Owned; proofs: Proofs }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const selectId = useId();
  const [heir, setHeir] = useState(org.admins[0]?.userId ?? '');
  const [transferOpen, setTransferOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [typedName, setTypedName] = useState('');
  const heirName = org.admins.find((admin) => admin.userId === heir)?.name ?? '';
  return (
    <section
      aria-labelledby={`${selectId}-title`}
      className="space-y-3 rounded-lg border border-slate-200 p-4"
    >
      <h3 id={`${selectId}-title`} className="font-semibold text-slate-900">
        {org.name}
      </h3>
      {org.admins.length > 0 ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="flex min-w-0 flex-col gap-1.5">
            <label htmlFor={selectId} className="text-sm font-medium text-slate-900">
              {t('accountDelete.newOwner')}
            </label>
            <select
              id={selectId}
              value={heir}
              onChange={(event) => setHeir(event.target.value)}
              className="h-10 max-w-full rounded-lg border border-slate-300 bg-white px-3 text-sm"
            >
              {org.admins.map((admin) => (
                <option key={admin.userId} value={admin.userId}>
                  {admin.name} ({admin.email})
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={() => setTransferOpen(true)}>
            {say(DELETION_MESSAGES.transferOwnership)}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-700">{t('accountDelete.noOtherAdmin')}</p>
      )}
      <Button variant="danger" onClick={() => setDeleteOpen(true)}>
        {say(DELETION_MESSAGES.deleteOrganization)}
      </Button>
      <ConfirmDialog
        open={transferOpen}
        onOpenChange={setTransferOpen}
        title={t('accountDelete.transferTitle', { organisation: org.name, heir: heirName })}
        description={t('accountDelete.transferDescription', { organisation: org.name, heir: heirName })}
        confirmLabel={say(DELETION_MESSAGES.transferOwnership)}
        busyLabel={t('accountDelete.transferring')}
        proofs={proofs}
        onConfirm={async (proof) => {
          const { name } = await transferOwnership(org.id, heir, proof!);
          toast.success(t(DELETION_MESSAGES.transferred, { name }));
          setTransferOpen(false);
          await queryClient.invalidateQueries({ queryKey: deletionStatusQuery.queryKey });
        }}
      />
      <ConfirmDialog
        open={deleteOpen}
        onOpenChange={(open) => {
          setDeleteOpen(open);
          if (!open) setTypedName('');
        }}
        title={t('accountDelete.deleteOrganisationTitle', { organisation: org.name })}
        description={t('accountDelete.deleteOrganisationDescription', { organisation: org.name })}
        confirmLabel={say(DELETION_MESSAGES.deleteOrganization)}
        busyLabel={t('accountDelete.deleting')}
        proofs={proofs}
        ready={typedName.trim() === org.name}
        extra={
          <FormField label={t('accountDelete.typeToConfirm', { organisation: org.name })}>
            <Input
              value={typedName}
              onChange={(event) => setTypedName(event.target.value)}
              autoComplete="off"
            />
          </FormField>
        }
        onConfirm={async (proof) => {
          await deleteOrganization(org.id, typedName, proof!);
          toast.success(say(DELETION_MESSAGES.organizationDeleted));
          setDeleteOpen(false);
          queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
          await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
          await navigate('/auth/admin-confirmation', { replace: true });
        }}
      />
    </section>
  );
}

/** Account Settings' 'Delete account': what it does, the organisations to hand over or delete first, and the button. */
export function DeleteAccountCard() {
  const status = useDeletionStatus();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const body = () => {
    if (status.isPending) return <Spinner label={t('accountDelete.loading')} className="py-4" />;
    if (status.isError)
      return <LoadFailed title={say(DELETION_MESSAGES.loadFailed)} onRetry={() => void status.refetch()} />;
    const { ownedOrganizations, ...proofs } = status.data;
    const owns = ownedOrganizations.length > 0;
    return (
      <div className="space-y-4">
        {owns && (
          <>
            <p className="text-sm text-slate-900">
              {t('accountDelete.youOwn', {
                organisations: formats().list(ownedOrganizations.map((org) => org.name)),
              })}
            </p>
            {ownedOrganizations.map((org) => (
              <OwnedOrganization key={org.id} org={org} proofs={proofs} />
            ))}
          </>
        )}
        <Button variant="danger" disabled={owns} onClick={() => setOpen(true)}>
          {say(DELETION_MESSAGES.deleteAccount)}
        </Button>
        <ConfirmDialog
          open={open}
          onOpenChange={setOpen}
          title={t('accountDelete.deleteAccountTitle')}
          description={t('accountDelete.deleteAccountDescription')}
          confirmLabel={say(DELETION_MESSAGES.deleteAccount)}
          busyLabel={t('accountDelete.deleting')}
          proofs={proofs}
          onConfirm={async (proof) => {
            await deleteAccount(proof!);
            replaceSession(queryClient, null);
            toast.success(say(DELETION_MESSAGES.accountDeleted));
            await navigate('/login', { replace: true });
          }}
        />
      </div>
    );
  };
  return (
    <SectionCard
      title={t('accountDelete.title')}
      description={t('accountDelete.description', { formerMember: say(FORMER_MEMBER) })}
      contentClassName="space-y-3"
    >
      {body()}
    </SectionCard>
  );
}
