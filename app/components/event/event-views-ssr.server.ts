// The event page's views as the server renders them: plain imports, so the page's first answer is
// complete (with JavaScript off too). The browser's copy of this module is empty, and the page
// loads each view as a chunk of its own (routes/e.$uuid/route.tsx): an organiser, a contributor and a
// recipient each download only the view they see.
export { EventAudienceView } from "./event-audience-view";
export { EventContributorView } from "./event-contributor-view";
export { EventCreatorView } from "./event-creator-view";
export { EventPublicView } from "./event-public-view";
