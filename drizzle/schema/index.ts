export * from "./users";
export * from "./auth";
export * from "./messages";
export * from "./events";
export * from "./drafts";
export * from "./media";
export * from "./render";
export * from "./realtime";
