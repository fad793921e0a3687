import { resolveOccasionLink, type Occasion } from "~/domain/occasions";
import { env } from "./env.server";

/** An occasion's marketing link with this deployment's hosts filled in. */
export const occasionHref = (occasion: Occasion) =>
  resolveOccasionLink(occasion.to, { mainSiteUrl: env().MAIN_SITE_URL, shareHost: env().SHARE_HOST });

/**
 * Where this page should have been opened, when the request came to another address of the same
 * server (127.0.0.1 instead of localhost, another port forwarded to it…): the session cookie belongs
 * to one address, and every link in a mail or text goes to `APP_URL`, so a person who opened another
 * one finds themselves signed out on following a link. Null when the request came to `APP_URL`.
 */
export function canonicalAddressFor(requestUrl: string, appUrl = env().APP_URL): string | null {
  const request = new URL(requestUrl);
  const app = new URL(appUrl);
  if (request.host === app.host) return null;
  return new URL(request.pathname + request.search, app).toString();
}

/**
 * What to say at start-up when `APP_URL` names this machine at another port than the server listens
 * on: every link in a mail or text would miss it. A public address is left alone (a proxy in front
 * answers on its own port).
 */
export function appUrlWarning(appUrl: string, listeningPort: number): string | null {
  const app = new URL(appUrl);
  if (!["localhost", "127.0.0.1", "[::1]"].includes(app.hostname)) return null;
  const port = Number(app.port || (app.protocol === "https:" ? 443 : 80));
  if (port === listeningPort) return null;
  return (
    `Warning: APP_URL is ${appUrl} but this server listens on port ${listeningPort}, so links in e-mails and texts ` +
    `will not reach it. Set APP_URL=${app.protocol}//${app.hostname}:${listeningPort}, or PORT=${port}.`
  );
}
