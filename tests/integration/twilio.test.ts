import http from "node:http";
import RequestClient from "twilio/lib/base/RequestClient";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { twilioPhoneLookup } from "~/integrations/phone/twilio-lookup.server";
import { twilioSmsProvider } from "~/integrations/sms/twilio.server";

interface Recorded {
  method: string;
  host: string;
  path: string;
  authorization: string | undefined;
  body: URLSearchParams;
}

// A stand-in for Twilio's HTTP API on loopback: the official SDK builds and sends real requests,
// only the host is swapped, so the tests see exactly what would go over the wire.
let server: http.Server;
let port = 0;
const recorded: Recorded[] = [];
let failNext = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url!, "http://local");
      recorded.push({
        method: req.method!,
        host: String(req.headers["x-original-host"]),
        path: url.pathname + url.search,
        authorization: req.headers.authorization,
        body: new URLSearchParams(raw),
      });
      res.setHeader("content-type", "application/json");
      if (failNext) {
        failNext = false;
        res.statusCode = 400;
        return res.end(JSON.stringify({ code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 }));
      }
      if (url.pathname.endsWith("/Messages.json")) {
        res.statusCode = 201;
        return res.end(JSON.stringify({ sid: "SM123", status: "queued", to: new URLSearchParams(raw).get("To") }));
      }
      const number = decodeURIComponent(url.pathname.split("/").pop()!);
      res.end(JSON.stringify({ phone_number: number, valid: true, country_code: "US", line_type_intelligence: { type: "mobile" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

class LoopbackClient extends RequestClient {
  override request<T>(opts: RequestClient.RequestOptions<T>) {
    const original = new URL(opts.uri);
    return super.request({
      ...opts,
      uri: `http://127.0.0.1:${port}${original.pathname}${original.search}`,
      headers: { ...opts.headers, "x-original-host": original.host },
    });
  }
}

const settings = {
  accountSid: "AC00000000000000000000000000000000",
  authToken: "secret-token",
  from: "+14155550100",
  httpClient: new LoopbackClient(),
};

describe("Twilio through its official SDK", () => {
  test("a text message is a form POST to the account's Messages resource with basic auth", async () => {
    await twilioSmsProvider(settings).send({ to: "+14155550123", body: "You're invited!" });
    const request = recorded.at(-1)!;
    expect(request).toMatchObject({
      method: "POST",
      host: "api.twilio.com",
      path: `/2010-04-01/Accounts/${settings.accountSid}/Messages.json`,
    });
    expect(request.body.get("To")).toBe("+14155550123");
    expect(request.body.get("From")).toBe("+14155550100");
    expect(request.body.get("Body")).toBe("You're invited!");
    expect(request.authorization).toBe(`Basic ${Buffer.from(`${settings.accountSid}:secret-token`).toString("base64")}`);
  });

  test("a refused message throws, so the job that sent it is retried", async () => {
    failNext = true;
    await expect(twilioSmsProvider(settings).send({ to: "+1", body: "x" })).rejects.toThrow(/not a valid phone number/);
  });

  test("a lookup asks Lookup v2 for line type intelligence and reads the answer", async () => {
    const result = await twilioPhoneLookup(settings).lookup("+14155550123");
    const request = recorded.at(-1)!;
    expect(request).toMatchObject({ method: "GET", host: "lookups.twilio.com" });
    expect(request.path).toBe("/v2/PhoneNumbers/+14155550123?Fields=line_type_intelligence");
    expect(result).toEqual({ valid: true, phoneNumber: "+14155550123", countryCode: "US", lineType: "mobile" });
  });
});
