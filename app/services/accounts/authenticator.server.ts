import type { User } from "drizzle/schema";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { loginInput } from "~/domain/account-rules";
import { CLIENT_IP_HEADER, clientIp, parseWith } from "~/lib/http.server";
import { logInWithPassword } from "~/services/accounts/auth.server";

/**
 * remix-auth only verifies credentials; the session is ours to write
 * (startUserSession). The form strategy reads `request.clone().formData()`, unbounded:
 * it is handed a request made of a body already read (`asFormRequest`), never the one that came in.
 */
let instance: Authenticator<User> | undefined;

export function authenticator() {
  instance ??= new Authenticator<User>().use(
    new FormStrategy(async ({ form, request }) => {
      const input = parseWith(loginInput, { email: form.get("email"), password: form.get("password") });
      return logInWithPassword({ ...input, ip: clientIp(request) });
    }),
    "form",
  );
  return instance;
}

/** The form strategy reads form data: a log-in's fields, read already (bounded), are re-encoded as a form for it. */
export async function asFormRequest(request: Request, body: Record<string, unknown>) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) if (typeof value === "string") form.set(key, value);
  return new Request(request.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", [CLIENT_IP_HEADER]: clientIp(request) },
    body: form,
  });
}
