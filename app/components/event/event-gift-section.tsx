import { Form, useLocation, useSearchParams } from "@remix-run/react";
import { Field, FormMessages, SelectField } from "~/components/ui/field";
import { formatMoney, moneyInput } from "~/domain/commerce/money";
import type { PageOf } from "~/services/events/event-page-view";
import { FoldedSection } from "./event-fold";
import { GiftPot } from "./event-gift-pot";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

type GiftSection = PageOf<"creator">["gift"];

const limits = (p: { minAmount: number; maxAmount: number; currency: string }) =>
  `${formatMoney(p.minAmount, p.currency)} to ${formatMoney(p.maxAmount, p.currency)}`;

/** The organiser turns on a group gift card: a brand for the recipient's country, and an optional target. */
export function EventGiftSection({ section }: { section: GiftSection }) {
  const reply = useIntentReply("gift");
  const values = reply && !reply.ok ? reply.values : undefined;
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  const { gift } = section;
  const collecting = !gift || gift.status === "collecting";
  return (
    <FoldedSection
      id="gift"
      heading="Group gift card"
      about={gift ? "Contributors chip in towards a gift card" : "Let contributors chip in towards one gift card"}
      open={!!reply || searchParams.has("giftCountry")}
    >
      <p>Contributors can chip in towards one gift card, sent to the recipient with the video.</p>
      {gift ? <GiftPot gift={gift} /> : null}
      {gift && gift.status !== "collecting" ? <p>Status: {gift.status === "delivered" ? "sent to the recipient" : gift.status}.</p> : null}
      {gift?.failure ? <p className="form-error">{gift.failure}</p> : null}
      <FormMessages formError={reply?.formError} message={reply?.message} />
      {collecting ? (
        <>
          <Form method="get" action={`${pathname}#gift`} className="row">
            <SelectField
              name="giftCountry"
              label="The recipient's country"
              defaultValue={section.country}
              options={section.countries.map((c) => ({ value: c.code, label: c.name }))}
            />
            <button className="button button--secondary" type="submit">
              Show its gift cards
            </button>
          </Form>
          {section.unavailable ? <p className="form-error">{section.unavailable}</p> : null}
          {section.products.length === 0 && !section.unavailable ? (
            <p className="empty-note">No gift cards are sold for this country yet.</p>
          ) : null}
          {section.products.length > 0 ? (
            <IntentForm intent="gift" section="gift">
              <input type="hidden" name="country" value={section.country} />
              <fieldset className="event-choices">
                <legend>Gift card</legend>
                {section.products.map((p) => (
                  <label key={p.id}>
                    <input type="radio" name="productId" value={p.id} defaultChecked={(values?.productId ?? section.productId) === p.id} />{" "}
                    {p.name} <span className="field-hint">({limits(p)})</span>
                  </label>
                ))}
              </fieldset>
              {reply?.errors?.productId ? (
                <p className="field-error" role="alert">
                  {reply.errors.productId}
                </p>
              ) : null}
              <Field
                name="target"
                label="Target (optional)"
                inputMode="decimal"
                hint="What you hope to collect; contributors see it."
                defaultValue={values?.target ?? (gift?.targetAmount ? moneyInput(gift.targetAmount, gift.currency) : "")}
                error={reply?.errors?.target}
              />
              <IntentButton intent="gift" pending="Saving…">
                {gift ? "Save the gift" : "Turn on the gift"}
              </IntentButton>
            </IntentForm>
          ) : null}
          {gift && gift.contributions === 0 ? (
            <IntentForm intent="gift-off" section="gift">
              <IntentButton intent="gift-off" pending="Turning off…" secondary>
                Turn off the gift
              </IntentButton>
            </IntentForm>
          ) : null}
        </>
      ) : null}
    </FoldedSection>
  );
}
