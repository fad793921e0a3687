import { FormMessages } from "~/components/ui/field";
import { FoldedSection } from "./event-fold";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

/** One e-mail from the organiser to every invitee who can be reached by e-mail. */
export function EventBroadcastForm({ invitees }: { invitees: number }) {
  const reply = useIntentReply("broadcast");
  const error = reply?.errors?.message;
  return (
    <FoldedSection id="message-all" heading="Message all invitees" about="One e-mail to everyone you invited" open={!!reply}>
      {invitees === 0 ? <p className="field-hint">Once you have invited people, you can write to all of them at once.</p> : null}
      <FormMessages formError={error ? undefined : reply?.formError} message={reply?.message} />
      <IntentForm key={reply?.sentAt ?? "broadcast"} intent="broadcast" section="message-all">
        <div className="field">
          <label htmlFor="broadcast-message">Your message</label>
          <textarea
            id="broadcast-message"
            name="message"
            rows={4}
            defaultValue={reply?.ok ? "" : reply?.values?.message}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "broadcast-message-error" : "broadcast-message-hint"}
          />
          <p className="field-hint" id="broadcast-message-hint">
            Sent by e-mail to everyone invited with an address, except people who unsubscribed.
          </p>
          {error ? (
            <p className="field-error" id="broadcast-message-error">
              {error}
            </p>
          ) : null}
        </div>
        <IntentButton intent="broadcast" pending="Sending…">
          Send to everyone
        </IntentButton>
      </IntentForm>
    </FoldedSection>
  );
}
