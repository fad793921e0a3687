import type { Event, User } from "drizzle/schema";
import { mailProduct, type MailOrderKind } from "~/domain/commerce/mail-orders";
import { formatMoney } from "~/domain/commerce/money";
import { INCLUSION_LABEL } from "~/domain/commerce/pricing";
import { canManageEvent } from "~/domain/event-permissions";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { forbidden, unauthorized } from "~/lib/http.server";
import type { Toast } from "~/lib/toast.server";
import { findCartById, findOpenCartOfEvent, findPaidCartOfEvent } from "~/models/cart.server";
import { listRecipients } from "~/models/event.server";
import { findInvoiceOfCart } from "~/models/payment.server";
import { formText } from "~/services/events/event-page-form.server";
import { openEventByUuid } from "~/services/events/event-page.server";
import { headlineOf } from "~/services/events/event-views.server";
import { parseCartUpdate } from "./cart-input.server";
import { loadCartState } from "./cart-state.server";
import type { CartView } from "./cart-views.server";
import { finalizeFreeCart, openCartOf, updateCart } from "./carts.server";
import { startCartCheckout } from "./checkout.server";
import { listCountries } from "./countries.server";

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

const money = (amount: number, cart: CartView) => formatMoney(amount, cart.totals.currency);

/** The invoice the Chorus itself was paid with, for a paid Chorus's page (none when it was paid in another way). */
async function chorusInvoiceNumber(event: Event) {
  if (!event.paid) return null;
  const paid = await findPaidCartOfEvent(db(), event.id);
  return paid ? ((await findInvoiceOfCart(db(), paid.id))?.number ?? null) : null;
}

/** What the page shows: every amount already in words, worked out on the server. */
export async function loadCheckoutPage({ event }: CheckoutContext) {
  const cart = await openCartOf(event);
  const options = [...cart.upsells, ...cart.availableAddons];
  return {
    uuid: event.uuid,
    headline: headlineOf(event, await listRecipients(db(), event.id)),
    // Once paid for, the page says so, then offers what the Chorus does not have yet (or says there is nothing left).
    paid: event.paid ? { invoiceNumber: await chorusInvoiceNumber(event) } : null,
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
      lines: cart.lineItems.map((l) => ({
        key: l.key,
        name: l.quantity > 1 ? `${l.name} × ${l.quantity}` : l.name,
        price: l.included ? INCLUSION_LABEL[l.included] : money(l.amount, cart),
        listPrice: l.included ? money(l.unitAmount * l.quantity, cart) : null,
      })),
      promotion: cart.promotion ? { ...cart.promotion, amount: `−${money(cart.promotion.discount, cart)}` } : null,
      tax: cart.taxation.amount ? `${cart.taxation.label} ${cart.taxation.rate}` : null,
      taxAmount: money(cart.taxation.amount, cart),
      subtotal: money(cart.totals.subtotal, cart),
      total: money(cart.totals.total, cart),
      free: cart.totals.total === 0,
      laterPurchase: cart.laterPurchase,
      base: cart.laterPurchase ? null : cart.lineItems[0]!,
      options,
      nothingChosen: !cart.lineItems.length,
    },
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

export type CheckoutPage = Awaited<ReturnType<typeof loadCheckoutPage>>;

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

/** Runs the page's form by the button pressed; a refusal is thrown as an ApiError for the route to show. */
export async function runCheckoutIntent({ event }: CheckoutContext, intent: string, form: FormData): Promise<CheckoutOutcome> {
  const page = `/e/${event.uuid}/checkout`;
  const opened = await findOpenCartOfEvent(db(), event.id);
  if (!opened) return { redirect: page };
  const seenVersion = Number(formText(form, "version"));
  const updated = await updateCart(opened, event, updateFromForm(form, intent));
  if (intent === "pay" || intent === "confirm") {
    // What was ticked differs from the total on screen: show the new total before anything is charged.
    if (updated.version !== seenVersion) {
      return { redirect: page, toast: { type: "info", title: "Your total changed", description: "Check it, then confirm again." } };
    }
    if (intent === "confirm") {
      await finalizeFreeCart(opened.id);
      if (updated.laterPurchase) return { redirect: `/e/${event.uuid}`, toast: { type: "success", title: "Added to your Chorus" } };
      return {
        redirect: `/e/${event.uuid}#deliver`,
        toast: { type: "success", title: "All set", description: "Your Chorus is ready to deliver." },
      };
    }
    const state = await loadCartState((await findCartById(db(), opened.id))!);
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
      throw error;
    }
  }
  const toast: Toast =
    intent === "apply-promo" && updated.promotion
      ? {
          type: "success",
          title: "Code applied",
          description: `You save ${money(updated.promotion.discount, updated)}.`,
        }
      : intent === "remove-promo"
        ? { type: "success", title: "Code removed" }
        : { type: "success", title: "Total updated" };
  return { redirect: page, toast };
}
