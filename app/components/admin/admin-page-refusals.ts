import type { StatusWords } from "~/components/shell/page-error";

/**
 * What an administrators' page says to an editor (lib/auth.server.ts requireAdmin). Anyone who is not
 * staff is answered 404 and finds the general "no such page", as on every staff page.
 */
export const ADMIN_PAGE_REFUSALS: StatusWords = {
  403: { title: "For administrators only", text: "Only administrators can see this page. Ask one if you need what it holds." },
};
