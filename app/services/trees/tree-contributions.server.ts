import type { User } from "drizzle/schema";
import { z } from "zod";
import { TREE_PRICE, TREE_QUANTITY } from "~/domain/commerce/catalogue";
import { isPaymentServiceError } from "~/integrations/payments/payments-port";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { ApiError, notFound } from "~/lib/http.server";
import { insertTreeContribution, setTreeContributionSession } from "~/models/tree-contribution.server";
import type { EventKeys } from "~/services/events/event-access.server";
import { openEventByUuid } from "~/services/events/open-event.server";
import { paymentsProvider } from "~/services/payments/provider.server";

// Trees planted in the recipient's honour (docs/decisions/028-trees-and-the-live-pot.md): paid through
// the same checkout as carts; only the payment webhook marks a contribution paid and queues planting.

export const plantTreesInput = z.object({
  name: z.string().trim().min(1, "Tell us your name.").max(100, "Keep your name under 100 characters."),
  email: z.email({ error: "Give an e-mail address for your receipt." }).max(254),
  quantity: z.coerce
    .number({ error: `Choose from ${TREE_QUANTITY.min} to ${TREE_QUANTITY.max} trees.` })
    .int(`Choose a whole number of trees.`)
    .min(TREE_QUANTITY.min, `Plant at least ${TREE_QUANTITY.min} tree.`)
    .max(TREE_QUANTITY.max, `Plant at most ${TREE_QUANTITY.max} trees at a time.`),
});

export type PlantTrees = z.infer<typeof plantTreesInput>;

/** The Chorus whose recipient trees may be planted for; the recipient's and view-only links may not (404). */
export async function chorusToPlantFor(user: User | null, eventUuid: string | undefined, keys: EventKeys = {}) {
  const { event, viewer } = await openEventByUuid(user, eventUuid, keys);
  if (viewer.role === "recipient" || viewer.role === "view-only" || event.deletedAt) {
    throw notFound("There is no Chorus to plant trees for here.");
  }
  return event;
}

/**
 * Starts a tree contribution: a pending row, and a checkout whose metadata names it; with its
 * session's id, which the contributor's browser keeps (the payment's return page is theirs alone).
 */
export async function startTreeContribution(user: User | null, eventUuid: string | undefined, fields: PlantTrees, keys: EventKeys = {}) {
  const event = await chorusToPlantFor(user, eventUuid, keys);
  const contribution = await insertTreeContribution(db(), {
    eventId: event.id,
    name: fields.name,
    email: fields.email,
    quantity: fields.quantity,
    unitAmount: TREE_PRICE.unitAmount,
    amount: TREE_PRICE.unitAmount * fields.quantity,
    currency: TREE_PRICE.currency,
    project: env().TREES_PROJECT_ID,
  });
  const provider = paymentsProvider();
  const base = env().APP_URL;
  try {
    const session = await provider.createPaymentCheckout({
      customerEmail: fields.email,
      clientReferenceId: contribution.id,
      metadata: { kind: "tree-contribution", treeContributionId: contribution.id, eventUuid: event.uuid },
      successUrl: `${base}/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/e/${event.uuid}/trees`,
      idempotencyKey: `tree-contribution:${contribution.id}`,
      lines: [
        {
          name: "A tree planted in the recipient's honour",
          unitAmount: TREE_PRICE.unitAmount,
          currency: TREE_PRICE.currency,
          quantity: fields.quantity,
        },
      ],
    });
    await setTreeContributionSession(db(), contribution.id, provider.name, session.id);
    return {
      id: contribution.id,
      quantity: contribution.quantity,
      amount: contribution.amount,
      currency: contribution.currency,
      url: session.url,
      sessionId: session.id,
    };
  } catch (error) {
    if (isPaymentServiceError(error)) throw new ApiError(503, "PAYMENT_SERVICE_UNAVAILABLE", error.message);
    throw error;
  }
}
