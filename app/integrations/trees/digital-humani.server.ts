import { z } from "zod";
import { TreePlantingError, type TreePlantingProvider } from "./trees-port";

// A Digital Humani-style planting API over plain HTTP (it publishes no SDK): `POST {baseUrl}/tree`
// with the enterprise, project, tree count and our key as `user`, authenticated by `x-api-key`.
// The key also goes as `Idempotency-Key`, so a repeated order answers the first one's planting.

export interface DigitalHumaniSettings {
  apiKey: string;
  baseUrl: string;
  enterpriseId: string;
  timeoutMs: number;
}

const plantingReply = z.object({
  uuid: z.string().min(1),
  treeCount: z.number().int(),
  projectId: z.string(),
  user: z.string(),
});

async function failureOf(response: Response) {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  const said = typeof body?.message === "string" ? ` (${body.message.slice(0, 200)})` : "";
  // A busy or failing vendor may take it later; a refusal of what we sent will not change.
  const retryable = response.status === 429 || response.status >= 500;
  return new TreePlantingError(`The tree-planting service answered ${response.status}${said}.`, retryable);
}

export function digitalHumaniProvider(settings: DigitalHumaniSettings): TreePlantingProvider {
  const base = settings.baseUrl.replace(/\/+$/, "");
  return {
    name: "digital-humani",
    async plant({ project, count, externalId }) {
      let response: Response;
      try {
        response = await fetch(`${base}/tree`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": settings.apiKey, "idempotency-key": externalId },
          body: JSON.stringify({ enterpriseId: settings.enterpriseId, projectId: project, treeCount: count, user: externalId }),
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
      } catch (error) {
        const why = error instanceof Error && error.name === "TimeoutError" ? "did not answer in time" : "could not be reached";
        throw new TreePlantingError(`The tree-planting service ${why}.`, true);
      }
      if (!response.ok) throw await failureOf(response);
      const parsed = plantingReply.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new TreePlantingError("The tree-planting service gave an answer we could not read.", true);
      return { id: parsed.data.uuid, externalId: parsed.data.user, project: parsed.data.projectId, count: parsed.data.treeCount };
    },
  };
}
