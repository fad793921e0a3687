import { Field, FormMessages } from "~/components/ui/field";
import type { PageOf } from "~/services/events/event-page-view";
import { FoldedSection } from "./event-fold";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

type Settings = PageOf<"creator">["settings"];

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p className="field-error" id={id}>
      {error}
    </p>
  ) : null;
}

/** Title, message, questions, deadline, guestbook and whether the Chorus still collects. */
export function EventSettingsForm({ settings }: { settings: Settings }) {
  const reply = useIntentReply("settings");
  const failed = reply && !reply.ok ? reply : undefined;
  const values = failed?.values;
  const errors = failed?.errors ?? {};
  const value = (name: keyof Settings & string) => values?.[name] ?? String(settings[name]);
  const promptError = Object.entries(errors).find(([key]) => key.startsWith("prompts"))?.[1];
  const status = values?.status ?? settings.status;
  return (
    <FoldedSection id="settings" heading="Settings" about="Title, message, questions, deadline…" open={!!reply}>
      <FormMessages formError={reply?.formError} message={reply?.message} />
      <IntentForm intent="settings" section="settings">
        <Field
          name="title"
          label="Title"
          defaultValue={value("title")}
          error={errors.title}
          hint="Leave it empty to use the recipients' names and the occasion."
        />
        <div className="field">
          <label htmlFor="settings-message">Message to contributors</label>
          <textarea
            id="settings-message"
            name="message"
            rows={4}
            defaultValue={value("message")}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={errors.message ? "settings-message-error" : undefined}
          />
          <FieldError id="settings-message-error" error={errors.message} />
        </div>
        <div className="field">
          <label htmlFor="settings-prompts">Questions for contributors</label>
          <textarea
            id="settings-prompts"
            name="prompts"
            rows={4}
            defaultValue={value("prompts")}
            aria-invalid={promptError ? true : undefined}
            aria-describedby={`settings-prompts-hint${promptError ? " settings-prompts-error" : ""}`}
          />
          <p className="field-hint" id="settings-prompts-hint">
            One question per line, for example "What's your favourite memory together?"
          </p>
          <FieldError id="settings-prompts-error" error={promptError} />
        </div>
        <fieldset className="event-fieldset">
          <legend>Deadline</legend>
          <div className="row">
            <Field
              name="deadlineDate"
              label="Day"
              type="date"
              defaultValue={value("deadlineDate")}
              aria-invalid={errors.deadline ? true : undefined}
            />
            <Field name="deadlineTime" label="Time" type="time" defaultValue={value("deadlineTime")} />
          </div>
          <div className="field">
            <label htmlFor="settings-timeZone">Time zone</label>
            <select
              id="settings-timeZone"
              name="timeZone"
              defaultValue={value("timeZone")}
              aria-invalid={errors.timeZone ? true : undefined}
            >
              {settings.timeZones.map((zone) => (
                <option key={zone.value} value={zone.value}>
                  {zone.label}
                </option>
              ))}
            </select>
            <FieldError id="settings-timeZone-error" error={errors.timeZone} />
          </div>
          <FieldError id="settings-deadline-error" error={errors.deadline} />
        </fieldset>
        <label className="event-check">
          <input type="checkbox" name="guestbook" value="on" defaultChecked={values ? "guestbook" in values : settings.guestbook} />{" "}
          Guestbook: contributors can leave a written message too
        </label>
        {settings.status !== "delivered" ? (
          <fieldset className="event-choices">
            <legend>Collecting</legend>
            <label>
              <input type="radio" name="status" value="active" defaultChecked={status === "active"} /> Keep collecting until the deadline
            </label>
            <label>
              <input type="radio" name="status" value="closed" defaultChecked={status === "closed"} /> Close collection now
            </label>
            <FieldError id="settings-status-error" error={errors.status} />
          </fieldset>
        ) : null}
        <IntentButton intent="settings" pending="Saving…">
          Save changes
        </IntentButton>
      </IntentForm>
    </FoldedSection>
  );
}
