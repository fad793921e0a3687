import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/lib/auth.server";
import { asPageError } from "~/lib/http.server";
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
