import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiResource, ok } from "~/lib/http.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { invoicesOf } from "~/services/commerce/invoices.server";

/** GET /api/v2/invoices: the caller's own invoices, newest first. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request }) {
    const user = await requireApiUser(request);
    return ok(await invoicesOf(user.id));
  },
});
