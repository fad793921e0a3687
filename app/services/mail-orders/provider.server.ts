import crypto from "node:crypto";
import type { MailOrderKind } from "~/domain/commerce/mail-orders";
import { acutrackProvider } from "~/integrations/fulfilment/acutrack.server";
import type { FulfilmentProvider } from "~/integrations/fulfilment/fulfilment-port";
import { heirloomProvider } from "~/integrations/fulfilment/heirloom.server";
import { localFulfilmentProvider } from "~/integrations/fulfilment/local.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";
import { findLocalFulfilmentOrder, insertLocalFulfilmentOrderOnce } from "~/models/local-fulfilment-order.server";

/** Whether `kind` is made by the app's own service (its vendor's key or address is not set). */
export function localFulfilmentActive(kind: MailOrderKind) {
  const settings = env();
  if (kind === "dvd") return !(settings.ACUTRACK_API_KEY && settings.ACUTRACK_API_URL);
  return !(settings.HEIRLOOM_API_KEY && settings.HEIRLOOM_API_URL);
}

/** The service that makes and posts `kind`: its vendor when its key is set, otherwise a local one inside the app. */
export function fulfilmentProvider(kind: MailOrderKind): FulfilmentProvider {
  return singleton(`fulfilmentProvider:${kind}`, () => {
    const settings = env();
    const timeoutMs = settings.FULFILMENT_TIMEOUT_SECONDS * 1000;
    if (kind === "dvd" && !localFulfilmentActive(kind)) {
      return acutrackProvider({ apiKey: settings.ACUTRACK_API_KEY!, baseUrl: settings.ACUTRACK_API_URL!, timeoutMs });
    }
    if (kind === "keepsake" && !localFulfilmentActive(kind)) {
      return heirloomProvider({ apiKey: settings.HEIRLOOM_API_KEY!, baseUrl: settings.HEIRLOOM_API_URL!, timeoutMs });
    }
    return localFulfilmentProvider({
      name: kind === "dvd" ? "local-discs" : "local-books",
      kind,
      appUrl: settings.APP_URL,
      stepMs: settings.LOCAL_FULFILMENT_STEP_SECONDS * 1000,
      newId: () => `${kind === "dvd" ? "ldvd" : "lbook"}_${crypto.randomBytes(10).toString("hex")}`,
      store: {
        insertOnce: (order) => insertLocalFulfilmentOrderOnce(db(), { ...order, service: kind }),
        find: (id) => findLocalFulfilmentOrder(db(), kind, id),
      },
    });
  });
}
