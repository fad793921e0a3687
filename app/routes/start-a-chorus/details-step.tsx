import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Field, SelectField, TextAreaField } from "~/components/ui/field";
import { MAX_PROMPT_LENGTH, MAX_PROMPTS } from "~/domain/event-input";
import type { StartDraft } from "~/domain/start-draft";
import type { TimeZoneOption } from "~/domain/time-zones";
import { canonicalTimeZone } from "~/domain/zoned-time";
import { useEditableRows } from "./editable-rows";
import { DefaultSubmit, StepActions } from "./form-controls";
import { stepPath } from "./steps";

interface Props {
  draft: StartDraft;
  errors: Record<string, string>;
  timeZones: TimeZoneOption[];
  /** yyyy-mm-dd bounds for the date picker. */
  firstDay: string;
  lastDay: string;
  /** What the Chorus is called when no title is given: "Ana's birthday". */
  defaultHeadline: string;
}

const promptId = (index: number) => `prompts.${index}`;

/** Until the organiser picks a zone, propose the browser's (without JavaScript: UTC). */
function useTimeZoneChoice(chosen: string, offered: TimeZoneOption[]) {
  const [options, setOptions] = useState(offered);
  const [value, setValue] = useState(chosen || "UTC");
  useEffect(() => {
    if (chosen) return;
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!browser) return;
    const match = offered.find((option) => canonicalTimeZone(option.value) === canonicalTimeZone(browser));
    if (!match) setOptions([...offered, { value: browser, label: browser.replace(/_/g, " ") }]);
    setValue(match?.value ?? browser);
  }, [chosen, offered]);
  return { options, value, setValue };
}

/** Step 3: the deadline, the title, the note to contributors and the questions they see. */
export function DetailsStep({ draft, errors, timeZones, firstDay, lastDay, defaultHeadline }: Props) {
  const zone = useTimeZoneChoice(draft.timeZone, timeZones);
  const initialPrompts = draft.prompts.length ? draft.prompts : [""];
  const prompts = useEditableRows(initialPrompts, "", MAX_PROMPTS, promptId, "add-prompt");
  return (
    <Form method="post" action={stepPath("details")} noValidate className="start-form">
      <DefaultSubmit />
      <fieldset className="start-fieldset">
        <legend className="start-legend">When should clips be in?</legend>
        <p className="field-hint start-fieldset__hint">Contributors can add clips until the deadline. You can extend it later.</p>
        <div className="row">
          <Field
            name="deadlineDate"
            label="Deadline"
            type="date"
            min={firstDay}
            max={lastDay}
            required
            defaultValue={draft.deadlineDate}
            error={errors.deadlineDate}
          />
          <Field
            name="deadlineTime"
            label="Time"
            type="time"
            hint="Optional: the end of the day if empty"
            defaultValue={draft.deadlineTime}
            error={errors.deadlineTime}
          />
        </div>
        <SelectField
          name="timeZone"
          label="Time zone"
          options={zone.options}
          value={zone.value}
          onChange={(event) => zone.setValue(event.currentTarget.value)}
          error={errors.timeZone}
        />
      </fieldset>

      <fieldset className="start-fieldset">
        <legend className="start-legend">What should contributors see?</legend>
        <Field
          name="title"
          label="Title"
          maxLength={120}
          placeholder={defaultHeadline}
          hint={`Optional. Without one we call it “${defaultHeadline}”.`}
          defaultValue={draft.title}
          error={errors.title}
        />
        <TextAreaField
          name="message"
          label="Message to contributors"
          rows={4}
          maxLength={2000}
          placeholder="We're making a surprise video for Ana's 40th! Record a short clip and share a favourite memory."
          hint="Shown on the page where friends add their clips."
          defaultValue={draft.message}
          error={errors.message}
        />
      </fieldset>

      <fieldset className="start-fieldset" aria-describedby={errors.prompts ? "prompts-error" : "prompts-hint"}>
        <legend className="start-legend">Questions to inspire them</legend>
        <p className="field-hint start-fieldset__hint" id="prompts-hint">
          Optional, up to {MAX_PROMPTS}. For example: “What's your favourite memory together?”
        </p>
        {errors.prompts ? (
          <p className="field-error" id="prompts-error">
            {errors.prompts}
          </p>
        ) : null}
        <ol className="start-rows">
          {prompts.rows.map((row, index) => (
            <li key={row.key} className="start-row">
              <TextAreaField
                id={promptId(index)}
                name={`prompts.${index}`}
                label={`Question ${index + 1}`}
                rows={2}
                maxLength={MAX_PROMPT_LENGTH}
                defaultValue={row.value}
                error={errors[`prompts.${row.key}`]}
              />
              {prompts.rows.length > 1 ? (
                <button
                  className="start-remove"
                  type="submit"
                  name="intent"
                  value={`remove-prompt:${index}`}
                  onClick={prompts.remove(index)}
                >
                  Remove<span className="visually-hidden"> question {index + 1}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ol>
        {prompts.canAdd ? (
          <button
            id="add-prompt"
            className="button button--secondary start-add"
            type="submit"
            name="intent"
            value="add-prompt"
            onClick={prompts.add}
          >
            + Add a question
          </button>
        ) : null}
      </fieldset>
      <StepActions next="Next: review" />
    </Form>
  );
}
