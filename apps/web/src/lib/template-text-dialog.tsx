import { zodResolver } from '@hookform/resolvers/zod';
import {
  TEMPLATE_MESSAGES,
  templateTextSchema,
  type TemplateText,
} from '@pulsecheck/shared/templates/schemas';
import { useForm } from 'react-hook-form';
import { Button, SubmitButton } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { applyServerErrors } from './forms';
import { say, t } from './i18n';

/** A field's message: a shared rule's key in the app's language, or the server's text as it came. */
const sayError = (message: string | undefined) => (message === undefined ? undefined : say(message));

/**
 * A template's name and description, asked in a dialog: 'Save as template' on Configure and 'Edit' on
 * Templates. `onSave` makes the request; a refusal shows on the fields or above them.
 */
export function TemplateTextDialog({
  title,
  initial,
  submitLabel,
  onSave,
  onClose,
}: {
  title: string;
  initial: TemplateText;
  submitLabel: string;
  onSave: (text: TemplateText) => Promise<unknown>;
  onClose: () => void;
}) {
  const form = useForm({ resolver: zodResolver(templateTextSchema), defaultValues: initial });
  const { register, formState, setError } = form;
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSave(values);
      onClose();
    } catch (error) {
      const left = applyServerErrors(error, form, say(TEMPLATE_MESSAGES.saveFailed));
      if (left) setError('root', { message: left });
    }
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={title}>
        <form className="flex flex-col gap-4" onSubmit={(event) => void submit(event)} noValidate>
          {formState.errors.root?.message && (
            <Notice tone="error">{say(formState.errors.root.message)}</Notice>
          )}
          <FormField label={t('common.name')} error={sayError(formState.errors.title?.message)}>
            <Input maxLength={200} {...register('title')} />
          </FormField>
          <FormField
            label={t('templates.description')}
            error={sayError(formState.errors.description?.message)}
          >
            <Textarea maxLength={2000} {...register('description')} />
          </FormField>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <SubmitButton pending={formState.isSubmitting} busy={t('templates.saving')}>
              {submitLabel}
            </SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
