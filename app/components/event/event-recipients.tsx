import { Field, FormMessages } from "~/components/ui/field";
import type { PageOf } from "~/services/events/event-page-view";
import { FoldedSection } from "./event-fold";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

type Recipient = PageOf<"creator">["recipients"][number];

/** One recipient's name and delivery addresses, in a disclosure that opens to edit them. */
function RecipientRow({ recipient, removable }: { recipient: Recipient; removable: boolean }) {
  const reply = useIntentReply("change-recipient");
  const mine = reply && !reply.ok && reply.values?.recipientId === recipient.id ? reply : undefined;
  const values = mine?.values ?? recipient;
  const errors = mine?.errors ?? {};
  const idOf = (name: string) => `recipient-${recipient.id}-${name}`;
  const name = [recipient.firstName, recipient.lastName].filter(Boolean).join(" ");
  return (
    <li className="event-recipient">
      <details open={!!mine}>
        <summary>
          <strong>{name}</strong>
          <span className="event-recipient__contact">
            {[recipient.email, recipient.phone].filter(Boolean).join(" · ") || "No e-mail or phone yet"}
          </span>
          <span className="event-recipient__edit">Edit</span>
        </summary>
        <IntentForm intent="change-recipient" section="recipients">
          <input type="hidden" name="recipientId" value={recipient.id} />
          {mine?.formError ? <FormMessages formError={mine.formError} /> : null}
          <div className="row">
            <Field id={idOf("firstName")} name="firstName" label="First name" defaultValue={values.firstName} error={errors.firstName} />
            <Field id={idOf("lastName")} name="lastName" label="Last name" defaultValue={values.lastName} error={errors.lastName} />
          </div>
          <div className="row">
            <Field id={idOf("email")} name="email" label="E-mail" type="email" defaultValue={values.email} error={errors.email} />
            <Field id={idOf("phone")} name="phone" label="Mobile" type="tel" defaultValue={values.phone} error={errors.phone} />
          </div>
          <IntentButton intent="change-recipient" row={{ name: "recipientId", value: recipient.id }} pending="Saving…">
            Save
          </IntentButton>
        </IntentForm>
        {removable ? (
          <IntentForm intent="remove-recipient" section="recipients" className="event-inline-form">
            <input type="hidden" name="recipientId" value={recipient.id} />
            <IntentButton intent="remove-recipient" row={{ name: "recipientId", value: recipient.id }} pending="Removing…" secondary>
              Remove {recipient.firstName}
            </IntentButton>
          </IntentForm>
        ) : null}
      </details>
    </li>
  );
}

export function EventRecipients({ recipients }: { recipients: Recipient[] }) {
  const added = useIntentReply("add-recipient");
  const changed = useIntentReply("change-recipient", "remove-recipient");
  const values = added?.ok ? undefined : added?.values;
  const errors = added?.errors ?? {};
  // Successes, and a refused removal, are said above the list; a failed edit or add is said in its form.
  const section = changed?.ok || changed?.intent === "remove-recipient" ? changed : added?.ok ? added : undefined;
  return (
    <FoldedSection
      id="recipients"
      heading="Recipients"
      about={recipients.map((r) => [r.firstName, r.lastName].filter(Boolean).join(" ")).join(", ")}
      open={!!added || !!changed}
    >
      <p className="field-hint">Who the Chorus is for. An e-mail or mobile number lets us deliver the video to them.</p>
      <FormMessages formError={section?.formError} message={section?.message} />
      <ul className="event-recipients">
        {recipients.map((recipient) => (
          <RecipientRow key={recipient.id} recipient={recipient} removable={recipients.length > 1} />
        ))}
      </ul>
      <details className="event-add" open={!!added && !added.ok}>
        <summary className="button button--secondary">Add a recipient</summary>
        <FormMessages formError={added?.ok ? undefined : added?.formError} />
        <IntentForm key={added?.sentAt ?? "add-recipient"} intent="add-recipient" section="recipients">
          <div className="row">
            <Field
              id="new-recipient-firstName"
              name="firstName"
              label="First name"
              defaultValue={values?.firstName}
              error={errors.firstName}
            />
            <Field id="new-recipient-lastName" name="lastName" label="Last name" defaultValue={values?.lastName} error={errors.lastName} />
          </div>
          <div className="row">
            <Field
              id="new-recipient-email"
              name="email"
              label="E-mail (optional)"
              type="email"
              defaultValue={values?.email}
              error={errors.email}
            />
            <Field
              id="new-recipient-phone"
              name="phone"
              label="Mobile (optional)"
              type="tel"
              defaultValue={values?.phone}
              error={errors.phone}
            />
          </div>
          <IntentButton intent="add-recipient" pending="Adding…">
            Add recipient
          </IntentButton>
        </IntentForm>
      </details>
    </FoldedSection>
  );
}
