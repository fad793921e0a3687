import type { organiserMediaOf } from "./media-grid.server";
import type { mediaView } from "./media-views.server";

// The photos and clips as the organiser's cards show them (app/components/media/): shaped by
// media-views.server.ts and media-grid.server.ts, named here for the components.

export type MediaView = ReturnType<typeof mediaView>;
export type OrganiserMedia = Awaited<ReturnType<typeof organiserMediaOf>>;
