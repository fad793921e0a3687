import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { SubmitButton } from "~/components/ui/submit-button";

const describedBy = (id: string, hint?: ReactNode, error?: string) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

function FieldNotes({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
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
    </>
  );
}

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** The multi-line sibling of `Field`, wired the same way for screen readers. */
export function TextAreaField({ name, label, error, hint, id = name, ...textarea }: TextAreaFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...textarea} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  options: { value: string; label: string }[];
}

export function SelectField({ name, label, error, hint, options, id = name, ...select }: SelectFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * Enter in a text field presses a form's first submit button. Steps also have Back, Add and
 * Remove buttons, so this invisible first button makes Enter mean "Next".
 */
export function DefaultSubmit() {
  return (
    <button type="submit" name="intent" value="next" className="visually-hidden" tabIndex={-1} aria-hidden="true">
      Next
    </button>
  );
}

/** Back (keeps what was typed on this step) and Next. */
export function StepActions({ next, back = true }: { next: string; back?: boolean }) {
  return (
    <div className="start-actions">
      {back ? (
        <button className="button button--secondary" type="submit" name="intent" value="back">
          Back
        </button>
      ) : null}
      <SubmitButton name="intent" value="next" pending="Saving…">
        {next}
      </SubmitButton>
    </div>
  );
}
