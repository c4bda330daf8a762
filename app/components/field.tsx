import { useEffect, useId, type InputHTMLAttributes, type RefObject } from "react";

/** No client-side validation: the server's messages are the only ones. */
export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name"> {
  label: string;
  name: string;
  errors?: readonly string[];
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

/** Pass the action data: each failed submission is a new object, so focus moves every time. */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, actionData: unknown): void {
  useEffect(() => {
    if (!actionData) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, actionData]);
}
