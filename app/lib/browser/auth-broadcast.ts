/** Login and logout in one tab reach the other tabs (spec §4 "Tabs"). */
export const AUTH_CHANNEL_NAME = "chorus-auth";

export type AuthMessage = { type: "login"; userId: string } | { type: "logout" };

type AuthChannel = Pick<BroadcastChannel, "postMessage" | "close" | "addEventListener" | "removeEventListener">;
export type AuthChannelConstructor = new (name: string) => AuthChannel;

export interface BroadcastOptions {
  /** Defaults to the global BroadcastChannel; absent on the server and in old browsers. */
  Channel?: AuthChannelConstructor;
}

const channelConstructor = (options: BroadcastOptions) =>
  options.Channel ?? (globalThis.BroadcastChannel as AuthChannelConstructor | undefined);

/** Anything another script or an older app version posts on the channel is untrusted. */
export function parseAuthMessage(data: unknown): AuthMessage | null {
  if (typeof data !== "object" || data === null) return null;
  const { type, userId } = data as { type?: unknown; userId?: unknown };
  if (type === "logout") return { type };
  if (type === "login" && typeof userId === "string" && userId !== "") return { type, userId };
  return null;
}

function post(message: AuthMessage, options: BroadcastOptions) {
  const Channel = channelConstructor(options);
  if (!Channel) return;
  const channel = new Channel(AUTH_CHANNEL_NAME);
  // Posting queues the message for every other open channel, so closing straight away loses nothing.
  channel.postMessage(message);
  channel.close();
}

export const announceLogin = (userId: string, options: BroadcastOptions = {}) => post({ type: "login", userId }, options);
export const announceLogout = (options: BroadcastOptions = {}) => post({ type: "logout" }, options);

export interface AuthChangeHandlers {
  onLogin?: (userId: string) => void;
  onLogout?: () => void;
}

export function listenForAuthChanges(handlers: AuthChangeHandlers, options: BroadcastOptions = {}): () => void {
  const Channel = channelConstructor(options);
  if (!Channel) return () => {};
  const channel = new Channel(AUTH_CHANNEL_NAME);
  const onMessage = (event: MessageEvent) => {
    const message = parseAuthMessage(event.data);
    if (message?.type === "login") handlers.onLogin?.(message.userId);
    else if (message?.type === "logout") handlers.onLogout?.();
  };
  channel.addEventListener("message", onMessage);
  return () => {
    channel.removeEventListener("message", onMessage);
    channel.close();
  };
}

export interface ReloadingHandlersOptions {
  /** True while this tab shows the logged-out shell. */
  isLoggedOut: () => boolean;
  reload?: () => void;
}

/**
 * A logout elsewhere ends this tab's session, so it must reload (spec §4). A login elsewhere only
 * matters to a tab still showing the logged-out state; a logged-in tab would just lose its work.
 */
export function createReloadingAuthHandlers({ isLoggedOut, reload }: ReloadingHandlersOptions): Required<AuthChangeHandlers> {
  const reloadPage = reload ?? (() => window.location.reload());
  return {
    onLogout: () => reloadPage(),
    onLogin: () => {
      if (isLoggedOut()) reloadPage();
    },
  };
}
