import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';

/**
 * A form of a few text fields without react-hook-form, for the sign-in screen, the first page many people open:
 * react-hook-form is 15 KiB gzipped of its first load (decision 0006). It behaves as our react-hook-form forms
 * do: the shared zod schema validates on submit (loaded when the form gets focus, or at the latest then, as
 * `lazyResolver` does), and on every change after a first submit; the first field in error gets focus; the
 * server's field errors land on their fields (`applyServerErrors`).
 */

type Issue = { readonly path: readonly PropertyKey[]; readonly message: string };
type SafeParse<Out> =
  { success: true; data: Out } | { success: false; error: { readonly issues: readonly Issue[] } };
export type LightSchema<Out> = { safeParse(values: unknown): SafeParse<Out> };

type Errors<Field extends string> = Partial<Record<Field, string>>;
type Checked<Field extends string, Out> = { ok: true; data: Out } | { ok: false; errors: Errors<Field> };

/** A schema fetched on first use (or `preload`); a failed fetch is tried again on the next use. */
export function lazySchema<Out>(load: () => Promise<LightSchema<Out>>) {
  let loaded: Promise<LightSchema<Out>> | undefined;
  const get = () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  return {
    preload: () => void get().catch(() => undefined),
    /** The parsed values, or the first message of each field in error. */
    check: async <Field extends string>(values: Record<Field, unknown>): Promise<Checked<Field, Out>> => {
      const result = (await get()).safeParse(values);
      if (result.success) return { ok: true, data: result.data };
      const errors: Errors<Field> = {};
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? '') as Field;
        errors[field] ??= issue.message;
      }
      return { ok: false, errors };
    },
  };
}

export function useLightForm<Values extends Record<string, string>, Out>(
  schema: ReturnType<typeof lazySchema<Out>>,
  initial: Values,
) {
  type Field = keyof Values & string;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [pending, setPending] = useState(false);
  const submitted = useRef(false);
  // Validations finish out of order when the schema is still loading: only the latest one shows.
  const latest = useRef(0);
  const validate = async (next: Values) => {
    const run = ++latest.current;
    const result = await schema.check<Field>(next);
    if (run === latest.current) setErrors(result.ok ? {} : result.errors);
    return result;
  };

  /** Props for the input of `name` (spread them on it). */
  const field = (name: Field) => ({
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (submitted.current) void validate(next).catch(() => undefined);
    },
  });

  /** A submit handler that validates, then runs `onValid` with the parsed values while `pending`. */
  const submit = (onValid: (data: Out) => Promise<void>) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    submitted.current = true;
    setPending(true);
    try {
      const result = await validate(values);
      if (!result.ok) {
        const { errors: found } = result;
        const first = Object.keys(initial).find((name) => found[name as Field]);
        const input = first ? form.elements.namedItem(first) : null;
        if (input instanceof HTMLElement) input.focus();
        return;
      }
      await onValid(result.data);
    } finally {
      setPending(false);
    }
  };

  return {
    values,
    errors,
    pending,
    field,
    submit,
    getValues: () => values,
    setError: (name: string, error: { message: string }) =>
      setErrors((current) => ({ ...current, [name]: error.message })),
  };
}
