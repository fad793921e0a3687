import type { ArrangePage } from "~/services/arrange/page.server";

export function ThemePanel(_props: { data: ArrangePage["theme"]; eventUuid: string }) {
  return null;
}
