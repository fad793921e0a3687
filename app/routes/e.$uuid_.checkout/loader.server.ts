import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { asPageError } from "~/lib/http.server";
import { getUser } from "~/services/accounts/current-user.server";
import { loadCheckoutPage, openCheckout } from "~/services/commerce/checkout-page.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    return json(
      { page: await loadCheckoutPage(await openCheckout(await getUser(request), params.uuid)) },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    throw asPageError(error);
  }
}
