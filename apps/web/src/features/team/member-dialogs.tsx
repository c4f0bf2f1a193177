import { zodResolver } from '@hookform/resolvers/zod';
import {
  displayName,
  inviteMemberSchema,
  TEAM_MESSAGES,
  type InviteMemberInput,
  type Member,
} from '@pulsecheck/shared/team/schemas';
import { useId, useState, type ComponentProps, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button, SubmitButton } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { toast, TOAST } from '@/components/ui/toaster';
import { applyServerErrors, errorMessage } from '@/lib/forms';
import { say, t } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useDepartments, useInvite, useRemoveMember, useSetOrganizationAdmin, useUpdateMember } from './api';
import { invitationToast } from './invitation-toast';

/** A form field's message: a catalogue key (the shared rules', this file's) said in the app's language. */
const said = (message: string | undefined) => (message ? say(message) : undefined);

function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Notice tone="error" className="px-3 py-2">
      {message}
    </Notice>
  );
}

function DialogActions({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      {children}
    </div>
  );
}

/** A checkbox with its label and a line that says what it gives. */
function ChoiceField({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        checked={checked}
        onCheckedChange={(value) => onChange(value === true)}
        aria-describedby={`${id}-hint`}
      />
      <div>
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      </div>
    </div>
  );
}

const AdminAccessField = (props: { checked: boolean; onChange: (value: boolean) => void }) => (
  <ChoiceField label={t('team.adminAccess')} hint={t('team.adminAccessHint')} {...props} />
);

function DepartmentInput({
  workspaceId,
  enabled,
  ...props
}: { workspaceId: string; enabled: boolean } & ComponentProps<typeof Input>) {
  const listId = useId();
  const departments = useDepartments(workspaceId, enabled);
  return (
    <>
      <Input list={listId} autoComplete="off" placeholder={t('team.departmentPlaceholder')} {...props} />
      <datalist id={listId}>
        {departments.data?.departments.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}

type InviteForm = z.input<typeof inviteMemberSchema>;

export function InviteDialog({
  workspaceId,
  open,
  onOpenChange,
}: {
  workspaceId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const invite = useInvite(workspaceId);
  const [failure, setFailure] = useState<string | null>(null);
  const [admin, setAdmin] = useState(false);
  const mailEnabled = useSession().data?.mailEnabled ?? true;
  const form = useForm<InviteForm>({
    resolver: zodResolver(inviteMemberSchema),
    defaultValues: { email: '', role: '', department: '' },
  });
  const { register, handleSubmit, formState, reset } = form;
  const close = (next: boolean) => {
    if (!next) {
      reset();
      setAdmin(false);
      setFailure(null);
    }
    onOpenChange(next);
  };
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const body: InviteMemberInput = { ...values, admin, department: values.department || undefined };
      const { member } = await invite.mutateAsync(body);
      invitationToast(member, t('team.invitationSentTo', { email: values.email.trim() }));
      close(false);
    } catch (error) {
      setFailure(applyServerErrors(error, form, say(TEAM_MESSAGES.inviteFailed)));
    }
  });
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={t('team.inviteDialog.title')}
        description={
          mailEnabled ? t('team.inviteDialog.description') : say(TEAM_MESSAGES.invitationsNotEmailed)
        }
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormError message={failure} />
          <FormField label={t('common.email')} error={said(formState.errors.email?.message)}>
            <Input type="email" autoComplete="off" {...register('email')} />
          </FormField>
          <FormField
            label={t('team.role')}
            error={said(formState.errors.role?.message)}
            hint={t('team.roleHint')}
          >
            <Input autoComplete="off" {...register('role')} />
          </FormField>
          <FormField label={t('team.department')} error={said(formState.errors.department?.message)}>
            <DepartmentInput workspaceId={workspaceId} enabled={open} {...register('department')} />
          </FormField>
          <AdminAccessField checked={admin} onChange={setAdmin} />
          <DialogActions onCancel={() => close(false)}>
            <SubmitButton pending={formState.isSubmitting} busy={t('team.sending')}>
              {t('team.inviteDialog.send')}
            </SubmitButton>
          </DialogActions>
        </form>
      </DialogContent>
    </Dialog>
  );
}

const editSchema = z.object({
  role: inviteMemberSchema.shape.role,
  // The message is a catalogue key, said in the app's language where it is shown (`said`).
  department: z.string().trim().max(80, TEAM_MESSAGES.departmentTooLong),
});
type EditForm = z.input<typeof editSchema>;

/** What every dialog about one member of the team gets. */
type MemberDialogProps = { workspaceId: string; member: Member; onClose: () => void };

/**
 * Edits a member: role, department and admin access for workspace admins (`canManage`); the 'Organisation admin'
 * choice for the organisation's owner (`canAppoint`), never on the owner's own row.
 */
export function EditMemberDialog({
  workspaceId,
  member,
  onClose,
  canManage,
  canAppoint,
}: MemberDialogProps & { canManage: boolean; canAppoint: boolean }) {
  const update = useUpdateMember(workspaceId);
  const setOrganizationAdmin = useSetOrganizationAdmin(workspaceId);
  const [failure, setFailure] = useState<string | null>(null);
  const [admin, setAdmin] = useState(member.access === 'admin');
  const appointable = canAppoint && member.organizationRole !== 'owner';
  const [organizationAdmin, setOrganizationAdminChoice] = useState(member.organizationRole === 'admin');
  const form = useForm<EditForm>({
    resolver: zodResolver(editSchema),
    defaultValues: { role: member.role ?? '', department: member.department ?? '' },
  });
  const { register, handleSubmit, formState } = form;
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      if (canManage)
        await update.mutateAsync({
          memberId: member.id,
          role: values.role,
          department: values.department ?? '',
          access: admin ? 'admin' : 'member',
        });
      if (appointable && organizationAdmin !== (member.organizationRole === 'admin'))
        await setOrganizationAdmin.mutateAsync({ memberId: member.id, organizationAdmin });
      toast.success(say(TEAM_MESSAGES.memberUpdated), { duration: TOAST.save });
      onClose();
    } catch (error) {
      setFailure(applyServerErrors(error, form, t('team.updateFailed')));
    }
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={t('team.editName', { name: say(displayName(member.name ?? member.email)) })}
        description={member.email}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormError message={failure} />
          {canManage && (
            <>
              <FormField label={t('team.role')} error={said(formState.errors.role?.message)}>
                <Input autoComplete="off" {...register('role')} />
              </FormField>
              <FormField label={t('team.department')} error={said(formState.errors.department?.message)}>
                <DepartmentInput workspaceId={workspaceId} enabled {...register('department')} />
              </FormField>
              <AdminAccessField checked={admin} onChange={setAdmin} />
            </>
          )}
          {appointable && (
            <ChoiceField
              label={t('team.organisationAdmin')}
              hint={t('team.organisationAdminHint')}
              checked={organizationAdmin}
              onChange={setOrganizationAdminChoice}
            />
          )}
          <DialogActions onCancel={onClose}>
            <SubmitButton pending={formState.isSubmitting} busy={t('team.saving')}>
              {t('team.saveChanges')}
            </SubmitButton>
          </DialogActions>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function RemoveMemberDialog({ workspaceId, member, onClose }: MemberDialogProps) {
  const remove = useRemoveMember(workspaceId);
  const [failure, setFailure] = useState<string | null>(null);
  const name = member.name ?? member.email;
  const onConfirm = async () => {
    setFailure(null);
    try {
      await remove.mutateAsync(member.id);
      toast.success(say(TEAM_MESSAGES.memberRemoved), { duration: TOAST.save });
      onClose();
    } catch (error) {
      setFailure(errorMessage(error, t('team.removeFailed')));
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={t('team.removeDialog.title', { name })}
        description={t('team.removeDialog.description')}
      >
        <div className="space-y-4">
          <FormError message={failure} />
          <DialogActions onCancel={onClose}>
            <Button variant="danger" disabled={remove.isPending} onClick={() => void onConfirm()}>
              {remove.isPending ? t('team.removing') : t('common.remove')}
            </Button>
          </DialogActions>
        </div>
      </DialogContent>
    </Dialog>
  );
}
