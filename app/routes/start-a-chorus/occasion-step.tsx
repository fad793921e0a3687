import { Form } from "@remix-run/react";
import type { ChangeEvent } from "react";
import { Field } from "~/components/ui/field";
import { OccasionIcon } from "~/components/ui/occasion-icon";
import { WEDDING_GUESTBOOK_TYPE } from "~/domain/occasions";
import type { StartDraft } from "~/domain/start-draft";
import { DefaultSubmit, StepActions } from "./form-controls";
import type { OccasionChoice } from "./occasion-choices";
import { stepPath } from "./steps";

interface Props {
  draft: StartDraft;
  errors: Record<string, string>;
  choices: OccasionChoice[];
}

/**
 * Step 1. Guestbook labels, the Wedding Guestbook entry and the custom-occasion field are
 * shown and hidden by CSS (`:has`), so the page behaves the same with JavaScript off.
 */
export function OccasionStep({ draft, errors, choices }: Props) {
  // Leaving guestbook mode hides "Wedding Guestbook": keep the wedding, drop the guestbook.
  const onGuestbookChange = (event: ChangeEvent<HTMLInputElement>) => {
    const form = event.currentTarget.form;
    const chosen = form?.querySelector<HTMLInputElement>('input[name="occasion"]:checked');
    if (!event.currentTarget.checked && chosen?.value === WEDDING_GUESTBOOK_TYPE) {
      form?.querySelector<HTMLInputElement>('input[name="occasion"][value="wedding"]')?.click();
    }
  };
  return (
    <Form method="post" action={stepPath("occasion")} noValidate className="start-form start-occasion-picker">
      <DefaultSubmit />
      <fieldset className="start-fieldset" aria-describedby={errors.occasion ? "occasion-error" : undefined}>
        <legend className="start-legend">What are you celebrating?</legend>
        {errors.occasion ? (
          <p className="field-error" id="occasion-error">
            {errors.occasion}
          </p>
        ) : null}
        <label className="start-toggle">
          <input type="checkbox" name="guestbook" value="on" defaultChecked={draft.guestbook} onChange={onGuestbookChange} />
          <span>
            <strong>Guestbook mode</strong>
            <span className="field-hint">Collect messages and clips as a guestbook, without a final video</span>
          </span>
        </label>
        <ul className="occasion-grid start-occasion-grid">
          {choices.map((choice) => (
            <li key={choice.value} className={choice.guestbookOnly ? "start-guestbook-only" : undefined}>
              <label>
                <input type="radio" name="occasion" value={choice.value} defaultChecked={draft.occasion === choice.value} />
                <span className="start-emoji">
                  <OccasionIcon type={choice.value} size={32} />
                </span>
                <span className="start-label--plain">{choice.label}</span>
                <span className="start-label--guestbook">{choice.guestbookLabel}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="start-other">
        <Field
          name="occasionOther"
          label="What's the occasion?"
          placeholder="e.g. New job, Housewarming"
          maxLength={60}
          defaultValue={draft.occasionOther}
          error={errors.occasionOther}
        />
      </div>
      <StepActions back={false} next="Next: who it's for" />
    </Form>
  );
}
