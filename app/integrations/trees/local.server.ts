import crypto from "node:crypto";
import { TreePlantingError, type TreePlantingProvider } from "./trees-port";

// The local planting vendor (no TREES_API_KEY): it plants in the one project it is open for and
// refuses any other for good, as a vendor does with a project that has closed. Its planting id is
// derived from the key, so the same key always answers the same planting without keeping anything.

export function localTreePlantingProvider({ openProject }: { openProject: string }): TreePlantingProvider {
  return {
    name: "local",
    async plant({ project, count, externalId }) {
      if (project !== openProject) throw new TreePlantingError(`The planting project "${project}" is no longer open.`, false);
      const id = `ltp_${crypto.createHash("sha256").update(externalId).digest("hex").slice(0, 24)}`;
      return { id, externalId, project, count };
    },
  };
}
