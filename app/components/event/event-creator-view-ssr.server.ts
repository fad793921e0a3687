// The organiser's view as the server renders it: a plain import, so the page's first answer is
// complete (with JavaScript off too). The browser's copy of this module is empty, and the page
// loads the same view as a chunk of its own (routes/e.$uuid.tsx), which contributors and recipients
// never download.
export { EventCreatorView } from "./event-creator-view";
