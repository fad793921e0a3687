import crypto from "node:crypto";
import { formatDeliveryDay } from "~/domain/delivery-estimate";
import { lobProvider } from "~/integrations/print-mail/lob.server";
import { localPrintMailProvider } from "~/integrations/print-mail/local.server";
import type { MailingStatus, PrintMailProvider } from "~/integrations/print-mail/print-mail-port";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";
import { findLocalPostcardMailing, insertLocalPostcardMailingOnce } from "~/models/postcard.server";

/** Whether the app's own print service is in use (no LOB_API_KEY is set). */
export const localPrintActive = () => !env().LOB_API_KEY;

/** Lob when its key is set; otherwise the local print service. */
export function printMailProvider(): PrintMailProvider {
  return singleton("printMailProvider", () => {
    const settings = env();
    if (settings.LOB_API_KEY) {
      return lobProvider({ apiKey: settings.LOB_API_KEY, baseUrl: settings.LOB_API_URL, timeoutMs: settings.LOB_TIMEOUT_SECONDS * 1000 });
    }
    return localPrintMailProvider({
      appUrl: settings.APP_URL,
      stepMs: settings.LOCAL_POSTCARD_STEP_SECONDS * 1000,
      newId: () => `lpc_${crypto.randomBytes(12).toString("hex")}`,
      store: {
        insertOnce: ({ id, input }) =>
          insertLocalPostcardMailingOnce(db(), {
            id,
            idempotencyKey: input.idempotencyKey,
            toAddress: input.to,
            frontUrl: input.frontUrl,
            backUrl: input.backUrl,
          }),
        find: (id) => findLocalPostcardMailing(db(), id),
      },
    });
  });
}

const WHERE: Readonly<Record<MailingStatus, string>> = {
  created: "Taken, waiting to be printed.",
  printed: "Printed, waiting to be posted.",
  mailed: "In the post, by First-Class Mail.",
  delivered: "Delivered.",
  returned: "Returned to the sender by the post.",
};

/**
 * The local print service's page of one postcard, its proof and its tracking: where it is, when it is
 * expected, and its print files (404 while Lob is configured).
 */
export async function localMailingView(id: string | undefined) {
  if (!localPrintActive() || !id) return null;
  const row = await findLocalPostcardMailing(db(), id);
  const mailing = row ? await printMailProvider().getPostcard(row.id) : null;
  if (!row || !mailing) return null;
  const arrived = mailing.status === "delivered" || mailing.status === "returned";
  return {
    id: row.id,
    status: mailing.status,
    where: WHERE[mailing.status],
    expectedBy: mailing.expectedDelivery && !arrived ? formatDeliveryDay(mailing.expectedDelivery) : null,
    to: row.toAddress,
    frontUrl: row.frontUrl,
    backUrl: row.backUrl,
  };
}
