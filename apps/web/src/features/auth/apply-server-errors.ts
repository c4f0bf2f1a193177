import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '@/lib/api-client';

/** Puts the server's field errors on the form's fields; returns the message for anything else. */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fallback: string,
) {
  if (error instanceof ApiError) {
    if (error.fields) {
      for (const [field, message] of Object.entries(error.fields)) setError(field as Path<T>, { message });
      return error.code === 'invalid' ? null : error.message;
    }
    return error.message;
  }
  return fallback;
}
