import type { LoaderFunctionArgs } from "@remix-run/node";
import { canAccessAccountOf } from "~/domain/membership";
import { db } from "~/lib/db.server";
import { apiResource, notFound, ok } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { findUserById } from "~/models/user.server";
import { requireApiUser } from "~/services/accounts/current-user.server";
import { promoCodesOf } from "~/services/commerce/promo-codes.server";

/** GET /api/v2/promo-codes/user/{id}: a user's own promo codes; staff may see anyone's. */
export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const actor = await requireApiUser(request);
    const id = uuidParam(params.id, "user");
    if (!canAccessAccountOf(actor, id)) throw notFound("There is no user with this id.");
    const owner = id === actor.id ? actor : await findUserById(db(), id);
    if (!owner) throw notFound("There is no user with this id.");
    return ok(await promoCodesOf(owner));
  },
});
