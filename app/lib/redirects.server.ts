import { redirect } from "@remix-run/node";

/** Adds an analytics flag the shell sends and then strips (spec §2.2). */
export function withAnalyticsFlag(path: string, flag: string) {
  const url = new URL(path, "http://local");
  url.searchParams.set(flag, "1");
  return url.pathname + url.search + url.hash;
}

/** A redirect that sets several cookies (session and toast). */
export function redirectWithCookies(to: string, cookies: (string | null | undefined)[]) {
  const headers = new Headers();
  for (const cookie of cookies) if (cookie) headers.append("Set-Cookie", cookie);
  return redirect(to, { headers });
}
