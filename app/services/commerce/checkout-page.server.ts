import type { Event, User } from "drizzle/schema";
import { summariseCart, type LivePricing } from "~/domain/commerce/cart-summary";
import { mailProduct, type MailOrderKind } from "~/domain/commerce/mail-orders";
import { formatMoney } from "~/domain/commerce/money";
import { canManageEvent } from "~/domain/event-permissions";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { forbidden, isApiError, unauthorized, type ApiError } from "~/lib/http.server";
import type { Toast } from "~/lib/toast.server";
import { findCartById, findOpenCartOfEvent } from "~/models/cart.server";
import { listRecipients } from "~/models/event.server";
import { formText } from "~/services/events/event-page-form.server";
import { headlineOf } from "~/services/events/event-views.server";
import { openEventByUuid } from "~/services/events/open-event.server";
import { parseCartUpdate } from "./cart-input.server";
import { pricingContextOf } from "./cart-state.server";
import type { CartView } from "./cart-views.server";
import { finalizeFreeCart, openCartStateOf, updateCart } from "./carts.server";
import { dropCodeOf, startCartCheckout, withoutRefusedCode, type DroppedCode } from "./checkout.server";
import { listCountries } from "./countries.server";
import { chorusInvoiceOf } from "./invoices.server";

// The cart page (/e/{uuid}/checkout): the organiser chooses what the Chorus comes with, applies a
// promo code, picks a billing country, and pays (or confirms a cart that costs nothing). One
// plain form does it all, so the page works without JavaScript.

export interface CheckoutContext {
  event: Event;
  user: User;
}

export async function openCheckout(user: User | null, rawUuid: string | undefined): Promise<CheckoutContext> {
  const { event, viewer } = await openEventByUuid(user, rawUuid, {});
  if (!viewer.user) throw unauthorized();
  if (!canManageEvent(viewer.role) || event.deletedAt) throw forbidden("Only the organiser can pay for this Chorus.");
  return { event, user: viewer.user };
}

/**
 * The payment service failed or is not set up. Recognised by name: the provider may come from the
 * server entry's copy of the port module rather than the build's.
 */
const isPaymentServiceError = (error: unknown): error is Error => error instanceof Error && error.name === "PaymentServiceError";

/** What the page shows: every amount already in words, worked out on the server. */
export async function loadCheckoutPage({ event }: CheckoutContext) {
  const { state, view: cart } = await openCartStateOf(event);
  const options = [...cart.upsells, ...cart.availableAddons];
  const invoice = await chorusInvoiceOf(event);
  // A paid cart's view is priced as its invoice says it was sold.
  const summary = summariseCart(cart);
  return {
    uuid: event.uuid,
    headline: headlineOf(event, await listRecipients(db(), event.id)),
    // Once paid for, the page says so, with what the invoice was for, then offers what the Chorus
    // does not have yet (or says there is nothing left).
    paid: event.paid
      ? { invoiceNumber: invoice?.number ?? null, total: invoice ? formatMoney(invoice.total, invoice.currency) : null }
      : null,
    nothingLeftToBuy: event.paid && (cart.status === "paid" || !options.length),
    cart: {
      id: cart.id,
      status: cart.status,
      version: cart.version,
      paidAt: cart.paidAt,
      invoiceNumber: cart.invoiceNumber,
      promoCode: cart.promoCode,
      promoCodeProblem: cart.promoCodeProblem,
      canUsePromoCode: cart.canUsePromoCode,
      billingCountry: cart.billingCountry ?? "",
      ...summary,
      laterPurchase: cart.laterPurchase,
      base: cart.laterPurchase ? null : cart.lineItems[0]!,
      options,
    },
    // The page prices the cart again in the browser as boxes are ticked (docs/decisions/046).
    live: {
      context: pricingContextOf(event, state.organiser, state.products),
      promo: state.promoRule
        ? {
            code: state.promoRule.code,
            kind: state.promoRule.kind,
            value: state.promoRule.value,
            productKeys: state.promoRule.productKeys,
            currency: state.promoRule.currency,
          }
        : null,
    } satisfies LivePricing,
    countries: listCountries("name"),
    byPost: byPostOffers(event),
  };
}

/**
 * Once the video is published, the DVD and the photo book are offered beside the cart: each links to
 * the post-order page with it chosen (and the organiser's last address filled in), where it is paid
 * on its own, as it has a quantity and postage the cart does not (docs/decisions/029).
 */
function byPostOffers(event: Event) {
  if (!event.publishedMedia) return [];
  return (["dvd", "keepsake"] as const satisfies readonly MailOrderKind[]).map((kind) => {
    const product = mailProduct(kind);
    return {
      kind,
      name: product.name,
      price: formatMoney(product.unitAmount, product.currency),
      href: `/e/${event.uuid}/post?kind=${kind}`,
    };
  });
}

export type CheckoutOutcome =
  | { redirect: string; toast?: Toast }
  | { reply: { intent: string; ok?: boolean; formError?: string; errors?: Record<string, string>; message?: string }; status: number };

/** The form as a cart update: ticked products, the code typed, the country chosen. */
function updateFromForm(form: FormData, intent: string) {
  const payload: Record<string, unknown> = {
    selected: form.getAll("selected").filter((v): v is string => typeof v === "string"),
    billingCountry: formText(form, "billingCountry"),
  };
  if (intent === "remove-promo") payload.promoCode = null;
  else if (form.has("promoCode")) payload.promoCode = formText(form, "promoCode") || null;
  return parseCartUpdate(payload);
}

const isRefusedCode = (error: unknown): error is ApiError => isApiError(error) && error.code === "PROMO_CODE_INVALID";

/** Back to the cart, saying the code was taken out and why, and what the cart now comes to. */
const codeDropped = (page: string, dropped: DroppedCode, total: string): CheckoutOutcome => ({
  redirect: page,
  toast: {
    type: "info",
    title: `Code ${dropped.code} removed`,
    description: `${dropped.reason} Your total is now ${total}: check it, then pay.`,
  },
});

/**
 * Pay or confirm, for what the organiser saw. The page sends the total it showed (`shownTotal`,
 * kept up to date by the page's script as boxes are ticked); a form without it is taken at the
 * version it showed. A code that can no longer be used is taken out rather than block paying:
 * when the page already showed the total without it, paying goes ahead; otherwise the page is
 * shown again with why, and its new total.
 */
async function payOrConfirm(
  context: CheckoutContext,
  intent: "pay" | "confirm",
  form: FormData,
  updated: CartView,
): Promise<CheckoutOutcome> {
  const { event } = context;
  const page = `/e/${event.uuid}/checkout`;
  const shownTotal = Number.parseInt(formText(form, "shownTotal"), 10);
  const cart = (await findCartById(db(), updated.id))!;
  let { state, dropped } = await withoutRefusedCode(cart);
  const total = () => formatMoney(state.pricing.totals.total, state.pricing.totals.currency);
  const sawIt = Number.isInteger(shownTotal)
    ? shownTotal === state.pricing.totals.total
    : updated.version === Number(formText(form, "version")) && !dropped;
  if (!sawIt) {
    if (dropped) return codeDropped(page, dropped, total());
    return { redirect: page, toast: { type: "info", title: "Your total changed", description: "Check it, then confirm again." } };
  }
  if (intent === "confirm") {
    await finalizeFreeCart(cart.id);
    if (state.laterPurchase) return { redirect: `/e/${event.uuid}`, toast: { type: "success", title: "Added to your Chorus" } };
    return {
      redirect: `/e/${event.uuid}#deliver`,
      toast: { type: "success", title: "All set", description: "Your Chorus is ready to deliver." },
    };
  }
  const base = env().APP_URL;
  try {
    // The organiser pays, also when an admin presses Pay for them.
    const session = await startCartCheckout(state, state.organiser, {
      // The return page waits for the webhook, then links back to the event (metadata.eventUuid).
      successUrl: `${base}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}${page}`,
    });
    return { redirect: session.url };
  } catch (error) {
    if (isPaymentServiceError(error)) return { reply: { intent, formError: error.message }, status: 503 };
    // Its last use was taken (or held by another payment page) a moment ago: taken out, and said.
    if (!isRefusedCode(error)) throw error;
    ({ state, dropped } = await dropCodeOf(state, error.message));
    return dropped ? codeDropped(page, dropped, total()) : { redirect: page };
  }
}

/** Runs the page's form by the button pressed; a refusal is thrown as an ApiError for the route to show. */
export async function runCheckoutIntent(context: CheckoutContext, intent: string, form: FormData): Promise<CheckoutOutcome> {
  const { event } = context;
  const page = `/e/${event.uuid}/checkout`;
  const opened = await findOpenCartOfEvent(db(), event.id);
  if (!opened) return { redirect: page };
  const updated = await updateCart(opened, event, updateFromForm(form, intent));
  if (intent === "pay" || intent === "confirm") return payOrConfirm(context, intent, form, updated);
  const toast: Toast =
    intent === "apply-promo" && updated.promotion
      ? {
          type: "success",
          title: "Code applied",
          description: `You save ${formatMoney(updated.promotion.discount, updated.totals.currency)}.`,
        }
      : intent === "remove-promo"
        ? { type: "success", title: "Code removed" }
        : { type: "success", title: "Total updated" };
  return { redirect: page, toast };
}
