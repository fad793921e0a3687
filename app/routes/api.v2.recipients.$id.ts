import type { ActionFunctionArgs } from "@remix-run/node";
import { apiResource, ok, readBody } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { getUser } from "~/services/accounts/current-user.server";
import { requireManagedRecipient } from "~/services/events/event-records.server";
import { changeRecipient, removeRecipient } from "~/services/events/recipients.server";

export const { loader, action } = apiResource<ActionFunctionArgs>({
  async PUT({ request, params }) {
    const { recipient } = await requireManagedRecipient(await getUser(request), uuidParam(params.id, "recipient"));
    return ok(await changeRecipient(recipient, await readBody(request)));
  },
  async DELETE({ request, params }) {
    const { recipient } = await requireManagedRecipient(await getUser(request), uuidParam(params.id, "recipient"));
    await removeRecipient(recipient);
    return ok({ deleted: true });
  },
});
