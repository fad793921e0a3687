import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { digitalHumaniProvider } from "~/integrations/trees/digital-humani.server";
import { TreePlantingError } from "~/integrations/trees/trees-port";
import { startTreePlantingStandIn, type TreePlantingStandIn } from "../support/tree-planting-stand-in";

// The planting adapter over plain HTTP, pointed at a stand-in of the vendor's API.

let standIn: TreePlantingStandIn;
const provider = (timeoutMs = 2000) =>
  digitalHumaniProvider({ apiKey: "stand-in-key", baseUrl: standIn.url, enterpriseId: "ent-1", timeoutMs });

beforeAll(async () => {
  standIn = await startTreePlantingStandIn();
});
afterAll(async () => {
  await standIn?.close();
});

const order = (externalId: string) => ({ project: "reforest-1", count: 7, externalId });

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("the planting did not fail");
    },
    (e: unknown) => e as TreePlantingError,
  );

describe("the HTTP tree-planting provider", () => {
  test("plants the count in the project, sending the key, the enterprise and the idempotency key", async () => {
    const planted = await provider().plant(order("contribution-1"));

    expect(planted).toMatchObject({ externalId: "contribution-1", project: "reforest-1", count: 7, id: expect.any(String) });
    const request = standIn.requests.at(-1)!;
    expect(request).toMatchObject({ method: "POST", path: "/tree", apiKey: "stand-in-key", idempotencyKey: "contribution-1" });
    expect(request.body).toEqual({ enterpriseId: "ent-1", projectId: "reforest-1", treeCount: 7, user: "contribution-1" });
  });

  test("the same key again answers the first planting, not a second one", async () => {
    const first = await provider().plant(order("contribution-2"));
    const again = await provider().plant(order("contribution-2"));

    expect(again.id).toBe(first.id);
    expect(standIn.plantings.size).toBe(2);
  });

  test("a 5xx or no answer in time may succeed later (retryable); a refusal will not", async () => {
    standIn.failNext(1, 500);
    const busy = await failureOf(provider().plant(order("contribution-3")));
    expect(busy).toBeInstanceOf(TreePlantingError);
    expect(busy.retryable).toBe(true);

    standIn.failNext(1, "hang");
    const slow = await failureOf(provider(300).plant(order("contribution-3")));
    expect(slow.message).toBe("The tree-planting service did not answer in time.");
    expect(slow.retryable).toBe(true);

    standIn.failNext(1, 400);
    const refused = await failureOf(provider().plant(order("contribution-3")));
    expect(refused.message).toBe("The tree-planting service answered 400 (Project is not active).");
    expect(refused.retryable).toBe(false);
  });
});
