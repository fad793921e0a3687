import type { ArrangePage } from "~/services/arrange/page.server";

export function MusicPanel(_props: { data: ArrangePage["music"]; eventUuid: string }) {
  return null;
}
