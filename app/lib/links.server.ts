import { resolveOccasionLink, type Occasion } from "~/domain/occasions";
import { env } from "./env.server";

/** An occasion's marketing link with this deployment's hosts filled in. */
export const occasionHref = (occasion: Occasion) =>
  resolveOccasionLink(occasion.to, { mainSiteUrl: env().MAIN_SITE_URL, shareHost: env().SHARE_HOST });
