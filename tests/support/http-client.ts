import crypto from "node:crypto";

export interface JsonReply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A small browser stand-in for API tests: keeps cookies like a browser would, and
 * comes from its own fake address (the server trusts X-Forwarded-For in tests), so
 * rate limits of one test never touch another.
 */
export class TestClient {
  readonly ip = `10.${crypto.randomInt(255)}.${crypto.randomInt(255)}.${crypto.randomInt(1, 255)}`;
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  hasCookie(name: string) {
    return this.cookies.has(name);
  }

  async raw(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      redirect: "manual",
      body: init.body,
      headers: { "x-forwarded-for": this.ip, cookie: this.cookieHeader(), ...init.headers },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim())) || value === "";
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    return response;
  }

  async json<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonReply<T>> {
    const response = await this.raw(method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: the test sees the text */
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get = <T = any>(path: string, headers?: Record<string, string>) => this.json<T>("GET", path, undefined, headers);
  post = <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => this.json<T>("POST", path, body ?? {}, headers);
  put = <T = any>(path: string, body?: unknown) => this.json<T>("PUT", path, body ?? {});
  delete = <T = any>(path: string) => this.json<T>("DELETE", path);

  /** A urlencoded form post, as a browser without JavaScript sends it. */
  form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.raw("POST", path, {
      body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  }
}
