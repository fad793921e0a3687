import type { ArrangePage } from "~/services/arrange/page.server";

export function RenderPanel(_props: { data: ArrangePage["render"]; eventUuid: string }) {
  return null;
}
