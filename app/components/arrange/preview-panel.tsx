import type { ArrangePage } from "~/services/arrange/page.server";

export function PreviewPanel(_props: { data: ArrangePage["preview"]; eventUuid: string }) {
  return null;
}
