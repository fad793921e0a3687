import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiResource, ok, parseBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { readAccount, updateAccount } from "~/services/accounts/accounts.server";
import { requireApiUser } from "~/services/accounts/current-user.server";

const accountChanges = z
  .object({
    role: z.enum(["user", "editor", "admin"]).optional(),
    subscriptionId: z.string().trim().max(200).nullable().optional(),
    hasLegacyB2bSubscription: z.boolean().optional(),
  })
  .strict();

export const { loader, action } = apiResource<LoaderFunctionArgs>({
  async GET({ request, params }) {
    const actor = await requireApiUser(request);
    return ok(await readAccount(actor, uuidParam(params.id, "user")));
  },
  async PUT({ request, params }) {
    const actor = await requireApiUser(request);
    const id = uuidParam(params.id, "user");
    return ok(await updateAccount(actor, id, await parseBody(request, accountChanges)));
  },
});
