import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { lobProvider } from "~/integrations/print-mail/lob.server";
import { PrintServiceError } from "~/integrations/print-mail/print-mail-port";
import { startLobStandIn, type LobStandIn } from "../support/lob-stand-in";

// The Lob provider through the official SDK, pointed at a stand-in of Lob's API.

let standIn: LobStandIn;
const provider = () => lobProvider({ apiKey: "test_stand_in_key", baseUrl: standIn.url, timeoutMs: 2000 });

beforeAll(async () => {
  standIn = await startLobStandIn();
});
afterAll(async () => {
  await standIn?.close();
});

const address = {
  name: "Ada Lovelace",
  line1: "12 Grove Road",
  line2: null,
  city: "London",
  region: null,
  postalCode: "SW1A 1AA",
  country: "GB",
};
const from = {
  name: "Chorus",
  line1: "210 King Street",
  line2: null,
  city: "San Francisco",
  region: "CA",
  postalCode: "94107",
  country: "US",
};
const mailing = (idempotencyKey: string) => ({
  to: address,
  from,
  frontUrl: "https://app.example.test/postcards/1/print/front.pdf?exp=1&sig=a",
  backUrl: "https://app.example.test/postcards/1/print/back.pdf?exp=1&sig=b",
  description: "A card",
  idempotencyKey,
});

describe("the Lob print provider", () => {
  test("creates a 4×6 postcard from our print files, with the API key and the Idempotency-Key", async () => {
    const made = await provider().createPostcard(mailing("card-1"));

    expect(made).toMatchObject({ id: expect.stringMatching(/^psc_/), status: "created", expectedDelivery: "2030-01-09" });
    const request = standIn.requests.at(-1)!;
    expect(request.path).toBe("/v1/postcards");
    expect(request.idempotencyKey).toBe("card-1");
    expect(request.authorization).toBe(`Basic ${Buffer.from("test_stand_in_key:").toString("base64")}`);
    expect(request.body).toMatchObject({
      size: "4x6",
      front: mailing("x").frontUrl,
      back: mailing("x").backUrl,
      to: { name: "Ada Lovelace", address_line1: "12 Grove Road", address_city: "London", address_zip: "SW1A 1AA", address_country: "GB" },
      from: { address_state: "CA", address_country: "US" },
    });
  });

  test("the same Idempotency-Key gives the first postcard, not a second card", async () => {
    const first = await provider().createPostcard(mailing("card-2"));
    const again = await provider().createPostcard(mailing("card-2"));

    expect(again.id).toBe(first.id);
    expect(standIn.postcards.size).toBe(2);
  });

  test("reads a postcard's progress from Lob's tracking events; an unknown one is null", async () => {
    const made = await provider().createPostcard(mailing("card-3"));
    const stored = standIn.postcards.get(made.id)!;
    standIn.postcards.set(made.id, { ...stored, send_date: "2020-01-01T00:00:00.000Z" });
    expect((await provider().getPostcard(made.id))?.status).toBe("printed");

    standIn.postcards.set(made.id, {
      ...stored,
      tracking_events: [
        { id: "evnt_1", name: "Mailed", type: "normal", object: "tracking_event" },
        { id: "evnt_2", name: "In Transit", type: "normal", object: "tracking_event" },
      ],
    });
    expect((await provider().getPostcard(made.id))?.status).toBe("mailed");
    standIn.postcards.set(made.id, {
      ...stored,
      tracking_events: [{ id: "evnt_3", name: "Delivered", type: "normal", object: "tracking_event" }],
    });
    expect((await provider().getPostcard(made.id))?.status).toBe("delivered");

    expect(await provider().getPostcard("psc_nosuchcard")).toBeNull();
  });

  test("a 5xx or no answer may be tried again; a refusal may not", async () => {
    standIn.failNext(1, 503);
    const failed = await provider()
      .createPostcard(mailing("card-4"))
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PrintServiceError);
    expect(failed).toMatchObject({ retryable: true });

    standIn.failNext(1, 422);
    const refused = await provider()
      .createPostcard(mailing("card-5"))
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: "PrintServiceError", retryable: false });

    const unreachable = lobProvider({ apiKey: "k", baseUrl: "http://127.0.0.1:9/v1", timeoutMs: 500 });
    expect(await unreachable.createPostcard(mailing("card-6")).catch((e: unknown) => e)).toMatchObject({ retryable: true });
  });
});
