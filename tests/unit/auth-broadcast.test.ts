import { BroadcastChannel as NodeBroadcastChannel } from "node:worker_threads";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  AUTH_CHANNEL_NAME,
  type AuthChannelConstructor,
  announceLogin,
  announceLogout,
  createReloadingAuthHandlers,
  listenForAuthChanges,
  parseAuthMessage,
} from "~/lib/browser/auth-broadcast";

const Channel = NodeBroadcastChannel as unknown as AuthChannelConstructor;
const cleanups: Array<() => void> = [];

afterEach(() => {
  cleanups.splice(0).forEach((cleanup) => cleanup());
  vi.unstubAllGlobals();
});

/** Listens as "the other tab" and resolves with its first callback. */
function otherTab() {
  const onLogin = vi.fn();
  const onLogout = vi.fn();
  const heard = new Promise<void>((resolve) => {
    onLogin.mockImplementation(() => resolve());
    onLogout.mockImplementation(() => resolve());
  });
  cleanups.push(listenForAuthChanges({ onLogin, onLogout }, { Channel }));
  return { onLogin, onLogout, heard };
}

/** A raw sender on the same channel, to post what a well-behaved tab never would. */
function rawSender() {
  const channel = new NodeBroadcastChannel(AUTH_CHANNEL_NAME);
  cleanups.push(() => channel.close());
  return channel;
}

describe("between two tabs", () => {
  test("uses the chorus-auth channel", () => {
    expect(AUTH_CHANNEL_NAME).toBe("chorus-auth");
  });

  test("a login in one tab reaches the other with the user id", async () => {
    const tab = otherTab();

    announceLogin("user-1", { Channel });
    await tab.heard;

    expect(tab.onLogin).toHaveBeenCalledWith("user-1");
    expect(tab.onLogout).not.toHaveBeenCalled();
  });

  test("a logout in one tab reaches the other", async () => {
    const tab = otherTab();

    announceLogout({ Channel });
    await tab.heard;

    expect(tab.onLogout).toHaveBeenCalledTimes(1);
    expect(tab.onLogin).not.toHaveBeenCalled();
  });

  test("works with the global BroadcastChannel by default", async () => {
    const onLogout = vi.fn();
    const heard = new Promise<void>((resolve) => onLogout.mockImplementation(() => resolve()));
    cleanups.push(listenForAuthChanges({ onLogout }));

    announceLogout();
    await heard;

    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  test("ignores malformed messages and keeps listening", async () => {
    const tab = otherTab();
    const sender = rawSender();

    for (const junk of [null, "logout", 42, { type: "login" }, { type: "login", userId: 7 }, { type: "hack" }]) {
      sender.postMessage(junk);
    }
    sender.postMessage({ type: "logout" });
    await tab.heard;

    expect(tab.onLogin).not.toHaveBeenCalled();
    expect(tab.onLogout).toHaveBeenCalledTimes(1);
  });

  test("stops hearing messages after unsubscribing", async () => {
    const onLogout = vi.fn();
    const unsubscribe = listenForAuthChanges({ onLogout }, { Channel });
    const control = otherTab();

    unsubscribe();
    announceLogout({ Channel });
    await control.heard;

    expect(onLogout).not.toHaveBeenCalled();
  });
});

describe("without BroadcastChannel", () => {
  test("announcing and listening do nothing and do not throw", () => {
    vi.stubGlobal("BroadcastChannel", undefined);

    expect(() => announceLogin("user-1")).not.toThrow();
    expect(() => announceLogout()).not.toThrow();
    const unsubscribe = listenForAuthChanges({ onLogout: () => {} });
    expect(() => unsubscribe()).not.toThrow();
  });
});

describe("parseAuthMessage", () => {
  test("accepts the two message shapes and nothing else", () => {
    expect(parseAuthMessage({ type: "login", userId: "u1" })).toEqual({ type: "login", userId: "u1" });
    expect(parseAuthMessage({ type: "logout", extra: 1 })).toEqual({ type: "logout" });
    expect(parseAuthMessage({ type: "login", userId: "" })).toBeNull();
    expect(parseAuthMessage(undefined)).toBeNull();
  });
});

describe("createReloadingAuthHandlers", () => {
  test("a logout elsewhere reloads a logged-in tab", () => {
    const reload = vi.fn();
    createReloadingAuthHandlers({ isLoggedOut: () => false, reload }).onLogout();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  test("a login elsewhere reloads a tab showing the logged-out state", () => {
    const reload = vi.fn();
    createReloadingAuthHandlers({ isLoggedOut: () => true, reload }).onLogin("user-1");
    expect(reload).toHaveBeenCalledTimes(1);
  });

  test("a login elsewhere leaves a logged-in tab alone", () => {
    const reload = vi.fn();
    createReloadingAuthHandlers({ isLoggedOut: () => false, reload }).onLogin("user-1");
    expect(reload).not.toHaveBeenCalled();
  });

  test("reloads through location.reload by default", () => {
    const reload = vi.fn();
    vi.stubGlobal("window", { location: { reload } });
    createReloadingAuthHandlers({ isLoggedOut: () => false }).onLogout();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  test("wired to a channel, a logout in another tab reloads this one", async () => {
    const reload = vi.fn();
    const reloaded = new Promise<void>((resolve) => reload.mockImplementation(() => resolve()));
    cleanups.push(listenForAuthChanges(createReloadingAuthHandlers({ isLoggedOut: () => false, reload }), { Channel }));

    announceLogout({ Channel });
    await reloaded;

    expect(reload).toHaveBeenCalledTimes(1);
  });
});
