import { Form } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { SubmitButton } from "~/components/ui/submit-button";
import { summariseChoice, type CartSummary } from "~/domain/commerce/cart-summary";
import { keptContributorPromoCode } from "~/lib/browser/contributor-promo";
import type { CheckoutPage } from "~/services/commerce/checkout-page-view";

type Cart = CheckoutPage["cart"];

function Gives({ lines }: { lines: readonly string[] }) {
  return (
    <ul className="checkout-gives">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/** The Chorus itself, always in a first cart, then the upsells and add-ons as boxes to tick. */
function Products({ cart, disabled, onTick }: { cart: Cart; disabled: boolean; onTick: () => void }) {
  return (
    <fieldset className="event-fieldset checkout-products">
      <legend>{cart.base ? "What your Chorus comes with" : "Add to your Chorus"}</legend>
      {cart.base ? (
        <div className="checkout-product">
          <label className="event-check">
            <input type="checkbox" checked disabled readOnly />
            <span>
              <strong>{cart.base.name}</strong> · {cart.lines[0]?.price}
            </span>
          </label>
          <Gives lines={cart.base.gives} />
        </div>
      ) : null}
      {cart.options.map((option) => (
        <div className="checkout-product" key={option.key}>
          <label className="event-check">
            <input
              type="checkbox"
              name="selected"
              value={option.key}
              defaultChecked={option.selected}
              disabled={disabled}
              onChange={onTick}
            />
            <span>
              <strong>{option.name}</strong> · {option.included ? "Included with your VIP membership" : option.price}
            </span>
          </label>
          <Gives lines={option.gives} />
        </div>
      ))}
    </fieldset>
  );
}

function Totals({ cart }: { cart: CartSummary }) {
  return (
    <table className="table checkout-totals" aria-live="polite">
      <caption className="visually-hidden">Your total</caption>
      <tbody>
        {cart.lines.map((line) => (
          <tr key={line.key}>
            <th scope="row">{line.name}</th>
            <td>
              {line.listPrice ? <s className="muted">{line.listPrice}</s> : null} {line.price}
            </td>
          </tr>
        ))}
        {cart.promotion ? (
          <tr>
            <th scope="row">
              Code {cart.promotion.code} ({cart.promotion.description})
            </th>
            <td>{cart.promotion.amount}</td>
          </tr>
        ) : null}
        {cart.tax ? (
          <tr>
            <th scope="row">{cart.tax}</th>
            <td>{cart.taxAmount}</td>
          </tr>
        ) : null}
        <tr className="checkout-totals__total">
          <th scope="row">Total</th>
          <td>{cart.total}</td>
        </tr>
      </tbody>
    </table>
  );
}

/**
 * What the form shows as ticked and chosen: the server's cart until the page's script runs, then
 * worked out again in the browser from the boxes and the country as they change (the same pricing
 * rules, docs/decisions/046), so the total and the Pay button follow at once.
 */
function useLiveSummary(page: CheckoutPage, form: React.RefObject<HTMLFormElement | null>) {
  const [choice, setChoice] = useState<{ ticked: string[]; country: string } | null>(null);
  const read = useCallback(() => {
    const element = form.current;
    if (!element) return;
    const data = new FormData(element);
    setChoice({
      ticked: data.getAll("selected").filter((v): v is string => typeof v === "string"),
      country: String(data.get("billingCountry") ?? ""),
    });
  }, [form]);
  // Read once the script runs (the browser may have restored boxes ticked before a reload), and
  // again whenever the server's cart changes.
  useEffect(read, [read, page.cart.version]);
  const summary: CartSummary = choice ? summariseChoice(page.live, choice.ticked, choice.country) : page.cart;
  return { summary, live: choice !== null, read };
}

/**
 * The cart as one plain form: every button posts all of it, so a code applied or a country
 * chosen keeps the ticked boxes, with or without JavaScript. It posts the total it shows, so Pay
 * charges what was on screen or shows the new total first.
 */
export function CheckoutForm({
  page,
  errors,
  values,
}: {
  page: CheckoutPage;
  errors?: Record<string, string>;
  values?: Record<string, string>;
}) {
  const { cart } = page;
  const promoInput = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const { summary, live, read } = useLiveSummary(page, form);
  // A code this browser was given for contributing is offered, not applied: Apply uses it.
  useEffect(() => {
    const kept = keptContributorPromoCode();
    if (kept && !cart.promoCode && promoInput.current && !promoInput.current.value) promoInput.current.value = kept;
  }, [cart.promoCode]);
  const paid = page.paid ? (
    <section className="card stack">
      <h2>Paid — thank you</h2>
      {cart.status === "paid" ? <Totals cart={cart} /> : null}
      <p>
        {page.paid.invoiceNumber ? `Invoice ${page.paid.invoiceNumber}, ${page.paid.total}. ` : null}You can deliver your Chorus to the
        recipient and download it in full quality.
      </p>
      {page.nothingLeftToBuy ? <p>Your Chorus has everything we offer: there is nothing left to buy.</p> : null}
      <a className="button" href={`/e/${page.uuid}#deliver`}>
        Go to delivery
      </a>
    </section>
  ) : null;
  if (page.nothingLeftToBuy || cart.status === "paid") return paid;
  const promoError = errors?.promoCode ?? cart.promoCodeProblem ?? undefined;
  return (
    <>
      {paid}
      <Form method="post" className="card stack checkout-form" ref={form}>
        <input type="hidden" name="version" value={cart.version} />
        <input type="hidden" name="shownTotal" value={summary.totalAmount} />
        <Products cart={cart} disabled={false} onTick={read} />
        <div className="field">
          <label htmlFor="promoCode">Promo code</label>
          <div className="checkout-inline">
            <input
              ref={promoInput}
              id="promoCode"
              name="promoCode"
              defaultValue={values?.promoCode ?? cart.promoCode ?? ""}
              autoComplete="off"
              autoCapitalize="characters"
              aria-invalid={promoError ? true : undefined}
              aria-describedby={promoError ? "promoCode-error" : undefined}
            />
            <button className="button button--secondary" type="submit" name="intent" value="apply-promo">
              Apply
            </button>
            {cart.promoCode ? (
              <button className="button button--secondary" type="submit" name="intent" value="remove-promo">
                Remove
              </button>
            ) : null}
          </div>
          {promoError ? (
            <p className="field-error" id="promoCode-error" role="alert">
              {promoError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="billingCountry">Billing country</label>
          <select
            id="billingCountry"
            name="billingCountry"
            defaultValue={cart.billingCountry}
            onChange={read}
            aria-invalid={errors?.billingCountry ? true : undefined}
            aria-describedby="billingCountry-hint"
          >
            <option value="">Choose your country</option>
            {page.countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          <p className="field-hint" id="billingCountry-hint">
            Tax, where it applies, depends on your country.
          </p>
          {errors?.billingCountry ? <p className="field-error">{errors.billingCountry}</p> : null}
        </div>
        {/* With the page's script the total follows the boxes at once; without it, this asks the server. */}
        {live ? null : (
          <p>
            <button className="button button--secondary" type="submit" name="intent" value="update">
              Update the total
            </button>
          </p>
        )}
        <Totals cart={summary} />
        {summary.nothingChosen ? (
          <p className="field-hint">
            {live ? "Tick what you would like to add." : "Tick what you would like to add, then update the total."}
          </p>
        ) : summary.free ? (
          <SubmitButton name="intent" value="confirm" pending="Confirming…">
            Confirm — no payment needed
          </SubmitButton>
        ) : (
          <SubmitButton name="intent" value="pay" pending="Opening the payment page…">
            {`Pay ${summary.total}`}
          </SubmitButton>
        )}
      </Form>
    </>
  );
}
