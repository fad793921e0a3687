import { occasionIconSprite, svgResponse } from "~/lib/occasion-icons.server";

/** GET /icons/occasions.svg: every occasion's picture as a symbol (OccasionIcon), cached by the browser for a day. */
export function loader() {
  return svgResponse(occasionIconSprite());
}
