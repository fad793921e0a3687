import { Field, FormMessages } from "~/components/ui/field";
import type { PageOf } from "~/services/events/event-page-view";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

/** Send the recipient their private link now or at a chosen moment; needs an address for them. */
export function EventDeliverForm({ delivery }: { delivery: PageOf<"creator">["delivery"] }) {
  const reply = useIntentReply("deliver");
  const values = reply && !reply.ok ? reply.values : undefined;
  const error = reply?.errors?.deliverAt ?? reply?.errors?.recipients;
  return (
    <section className="card event-section" id="deliver" aria-labelledby="deliver-heading">
      <h2 id="deliver-heading">Deliver</h2>
      {delivery.paid ? (
        <p className="event-paid">
          <strong>Paid</strong>
          {delivery.paid.invoiceNumber ? ` — invoice ${delivery.paid.invoiceNumber}, ${delivery.paid.total}.` : "."}
        </p>
      ) : null}
      {delivery.deliveredAt ? <p>Delivered on {delivery.deliveredAt}.</p> : null}
      {delivery.scheduledFor ? <p>The private link will be sent on {delivery.scheduledFor}.</p> : null}
      {!delivery.unlocked || reply?.errors?.payment ? (
        <p className="empty-note" role={reply?.errors?.payment ? "alert" : undefined}>
          Sending the video to the recipient, playing it on their link and the view-only link, and downloading it in full quality come with
          paying for this Chorus. <a href={delivery.cartPath}>Go to checkout</a>
        </p>
      ) : !delivery.possible ? (
        <p className="empty-note">
          To deliver the video we need the recipient's e-mail address or mobile number. Add one under <a href="#recipients">Recipients</a>,
          or send them the private link above yourself.
        </p>
      ) : (
        <>
          <FormMessages formError={error ? undefined : reply?.formError} message={reply?.message} />
          <IntentForm intent="deliver" section="deliver">
            <fieldset className="event-choices">
              <legend>When should the recipient get their private link?</legend>
              <label>
                <input type="radio" name="when" value="now" defaultChecked={(values?.when ?? "now") === "now"} /> Now
              </label>
              <label>
                <input type="radio" name="when" value="later" defaultChecked={values?.when === "later"} /> At a date and time (
                {delivery.timeZone.replace(/_/g, " ")})
              </label>
            </fieldset>
            <div className="row">
              <Field name="deliverDate" label="Day" type="date" min={delivery.today} defaultValue={values?.deliverDate} />
              <Field name="deliverTime" label="Time" type="time" defaultValue={values?.deliverTime ?? "09:00"} />
            </div>
            {error ? (
              <p className="field-error" role="alert">
                {error}
              </p>
            ) : null}
            <IntentButton intent="deliver" pending="Sending…">
              Send the private link
            </IntentButton>
          </IntentForm>
        </>
      )}
    </section>
  );
}
