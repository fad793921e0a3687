import type { InputHTMLAttributes, ReactNode } from "react";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** A labelled input with its hint and error wired for screen readers. */
export function Field({ name, label, error, hint, id = name, ...input }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function FormMessages({ formError, message }: { formError?: string; message?: string }) {
  return (
    <>
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      {message ? (
        <p className="form-note" role="status">
          {message}
        </p>
      ) : null}
    </>
  );
}
