import { Field, FormMessages } from "~/components/ui/field";
import { FoldedSection } from "./event-fold";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

/** Add one invitee: a name, at least one way to reach them, and whether to send now. Folded while not collecting. */
export function EventInviteForm({ collecting }: { collecting: boolean }) {
  const reply = useIntentReply("invite");
  const values = reply?.ok ? undefined : reply?.values;
  const errors = reply?.errors ?? {};
  // A failed submit keeps what was ticked; a fresh form has every box ticked.
  const ticked = (name: string) => (values ? name in values : true);
  return (
    <FoldedSection id="invite" heading="Invite people" about="Add someone by e-mail or text" open={collecting || !!reply}>
      {!collecting ? (
        <p className="form-note">This Chorus is not collecting right now. Extend the deadline in Settings to send invitations.</p>
      ) : null}
      <FormMessages formError={reply?.formError} message={reply?.message} />
      <IntentForm key={reply?.sentAt ?? "invite"} intent="invite" section="invite">
        <Field name="name" label="Name" autoComplete="off" required defaultValue={values?.name} error={errors.name} />
        <div className="row">
          <Field name="email" label="E-mail" type="email" autoComplete="off" defaultValue={values?.email} error={errors.email} />
          <Field
            name="phone"
            label="Mobile"
            type="tel"
            autoComplete="off"
            defaultValue={values?.phone}
            error={errors.phone}
            hint="With the country code if it is abroad."
          />
        </div>
        <fieldset className="event-choices" aria-describedby={errors.viaEmail ? "channels-error" : undefined}>
          <legend>Send it</legend>
          <label>
            <input type="checkbox" name="viaEmail" value="on" defaultChecked={ticked("viaEmail")} /> By e-mail
          </label>
          <label>
            <input type="checkbox" name="viaSms" value="on" defaultChecked={ticked("viaSms")} /> By text message
          </label>
          {errors.viaEmail ? (
            <p className="field-error" id="channels-error">
              {errors.viaEmail}
            </p>
          ) : null}
          <p className="field-hint">We use the ones you filled in.</p>
        </fieldset>
        <label className="event-check">
          <input type="checkbox" name="sendNow" value="on" defaultChecked={ticked("sendNow")} /> Send the invitation now
        </label>
        <IntentButton intent="invite" pending="Adding…">
          Add to the list
        </IntentButton>
      </IntentForm>
    </FoldedSection>
  );
}
