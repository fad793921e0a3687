import { Form } from "@remix-run/react";
import { Field } from "~/components/ui/field";
import { MAX_RECIPIENTS } from "~/domain/event-input";
import { PRODUCT_NAME } from "~/domain/product";
import type { StartDraft } from "~/domain/start-draft";
import { useEditableRows } from "./editable-rows";
import { DefaultSubmit, StepActions } from "./form-controls";
import { stepPath } from "./steps";

interface Props {
  draft: StartDraft;
  errors: Record<string, string>;
}

const BLANK = { firstName: "", lastName: "" };
const firstNameId = (index: number) => `recipients.${index}.firstName`;

/** Step 2: one or more people the Chorus is for (a couple, a team, a family). */
export function RecipientsStep({ draft, errors }: Props) {
  const initial = draft.recipients.length ? draft.recipients : [BLANK];
  const { rows, add, remove, canAdd } = useEditableRows(initial, BLANK, MAX_RECIPIENTS, firstNameId, "add-recipient");
  return (
    <Form method="post" action={stepPath("recipients")} noValidate className="start-form">
      <DefaultSubmit />
      <fieldset className="start-fieldset" aria-describedby={errors.recipients ? "recipients-error" : "recipients-hint"}>
        <legend className="start-legend">Who is this {PRODUCT_NAME} for?</legend>
        <p className="field-hint" id="recipients-hint">
          One person, a couple, a team: add everyone it's for, up to {MAX_RECIPIENTS} people.
        </p>
        {errors.recipients ? (
          <p className="field-error" id="recipients-error">
            {errors.recipients}
          </p>
        ) : null}
        <ol className="start-rows">
          {rows.map((row, index) => (
            <li key={row.key} className="start-row">
              <div className="row">
                <Field
                  id={firstNameId(index)}
                  name={`recipients.${index}.firstName`}
                  label={rows.length > 1 ? `First name (person ${index + 1})` : "First name"}
                  autoComplete="off"
                  maxLength={60}
                  defaultValue={row.value.firstName}
                  error={errors[`recipients.${row.key}.firstName`]}
                />
                <Field
                  id={`recipients.${index}.lastName`}
                  name={`recipients.${index}.lastName`}
                  label={rows.length > 1 ? `Last name (person ${index + 1})` : "Last name"}
                  hint="Optional"
                  autoComplete="off"
                  maxLength={60}
                  defaultValue={row.value.lastName}
                  error={errors[`recipients.${row.key}.lastName`]}
                />
              </div>
              {rows.length > 1 ? (
                <button className="start-remove" type="submit" name="intent" value={`remove-recipient:${index}`} onClick={remove(index)}>
                  Remove<span className="visually-hidden"> person {index + 1}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ol>
        {canAdd ? (
          <button
            id="add-recipient"
            className="button button--secondary start-add"
            type="submit"
            name="intent"
            value="add-recipient"
            onClick={add}
          >
            + Add another person
          </button>
        ) : (
          <p className="field-hint">That's the most people one {PRODUCT_NAME} can be for.</p>
        )}
      </fieldset>
      <StepActions next="Next: details" />
    </Form>
  );
}
