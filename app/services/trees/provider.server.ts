import { digitalHumaniProvider } from "~/integrations/trees/digital-humani.server";
import { localTreePlantingProvider } from "~/integrations/trees/local.server";
import type { TreePlantingProvider } from "~/integrations/trees/trees-port";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";

/** The planting vendor over HTTP when its key is set; otherwise the local vendor. */
export function treePlantingProvider(): TreePlantingProvider {
  return singleton("treePlantingProvider", () => {
    const settings = env();
    if (settings.TREES_API_KEY) {
      return digitalHumaniProvider({
        apiKey: settings.TREES_API_KEY,
        baseUrl: settings.TREES_API_URL,
        enterpriseId: settings.TREES_ENTERPRISE_ID,
        timeoutMs: settings.TREES_TIMEOUT_SECONDS * 1000,
      });
    }
    return localTreePlantingProvider({ openProject: settings.TREES_PROJECT_ID });
  });
}
