import { occasionIconSprite } from "~/lib/occasion-icons.server";

/** GET /icons/occasions.svg: every occasion's picture as a symbol (OccasionIcon), cached by the browser for a day. */
export function loader() {
  return new Response(occasionIconSprite(), {
    headers: {
      "Content-Type": "image/svg+xml",
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
