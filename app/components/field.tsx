import { useEffect, useId, type InputHTMLAttributes, type RefObject } from "react";

/**
 * One form field: label, optional hint, error message and input, wired for
 * assistive technology. No client-side validation: the server's messages are the only ones.
 *
 *   <Field label="Email" name="email" type="email" autoComplete="email"
 *          errors={failure?.errors.email} defaultValue={failure?.values.email} />
 */
export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name"> {
  label: string;
  name: string;
  /** The field's messages from the failed submission (`useActionData<typeof action>()?.errors.<name>`). */
  errors?: readonly string[];
  /** A short help text shown under the label. */
  hint?: string;
}

export function Field({ label, name, errors, hint, ...input }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const message = errors?.length ? errors.join(" ") : undefined;
  const errorId = message ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {errorId ? (
        <p id={errorId} className="field-error">
          {message}
        </p>
      ) : null}
      <input
        {...input}
        id={id}
        name={name}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={describedBy}
      />
    </div>
  );
}

/**
 * After a failed submission, moves focus to the first invalid field, so keyboard
 * and screen-reader users land on what needs fixing. Pass the action data: each
 * failed submission is a new object, so focus moves every time.
 */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, actionData: unknown): void {
  useEffect(() => {
    if (!actionData) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, actionData]);
}
