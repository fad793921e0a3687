import { SubmitButton } from "~/components/ui/submit-button";

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
