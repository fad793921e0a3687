// The bell as the server renders it: a plain import, so a signed-in person's first answer has it
// (with JavaScript off too). The browser's copy of this module is empty, and the header loads the
// bell as a chunk of its own (header.tsx), which visitors who are not signed in never download.
export { NotificationsMenu } from "./notifications-menu";
