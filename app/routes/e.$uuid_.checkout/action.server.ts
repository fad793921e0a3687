import { json, type ActionFunctionArgs } from "@remix-run/node";
import { readForm } from "~/lib/form.server";
import { isApiError } from "~/lib/http.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser } from "~/services/accounts/current-user.server";
import { openCheckout, runCheckoutIntent } from "~/services/commerce/checkout-page.server";
import { formText } from "~/services/events/event-page-form.server";
import type { CheckoutPageReply } from "./view";

/** The page's one form, by the button pressed: update, apply or remove a code, pay, or confirm a free cart. */
export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = formText(form, "intent");
  try {
    const outcome = await runCheckoutIntent(await openCheckout(await getUser(request), params.uuid), intent, form);
    if ("reply" in outcome) return json<CheckoutPageReply>(outcome.reply, { status: outcome.status });
    return redirectWithCookies(outcome.redirect, outcome.toast ? [await toastHeader(outcome.toast)] : []);
  } catch (error) {
    if (!isApiError(error)) throw error;
    // What was typed stays in the field, so a refused code's typo can be seen.
    const values = form.has("promoCode") ? { promoCode: formText(form, "promoCode") } : undefined;
    return json<CheckoutPageReply>({ intent, formError: error.message, errors: error.fields, values }, { status: error.status });
  }
}
