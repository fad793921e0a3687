import type { LoaderFunctionArgs } from "@remix-run/node";
import { occasionIconSvg, svgResponse } from "~/lib/occasion-icons.server";

/** GET /icons/occasions/{type}: an occasion's picture (SVG), cached by the browser for a day. */
export function loader({ params }: LoaderFunctionArgs) {
  const svg = occasionIconSvg(params.type ?? "");
  if (!svg)
    return new Response("There is no occasion of this kind.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return svgResponse(svg);
}
