import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ChatIcon } from "~/components/ui/icons";
import type { AuthedUser } from "~/domain/membership";
import { useChatClearance } from "./chat-clearance";
import { useShellUi } from "./shell-ui";

/** Spec §9: the chat widget comes back 1 s after the menu changes. */
export const CHAT_RESTORE_DELAY_MS = 1000;

type Kind = "chat" | "feedback";
/** The /support action's answer (FormReply): `ok`, or the field errors. */
interface Reply {
  ok?: boolean;
  errors?: Record<string, string>;
}

/**
 * Our own support chat and feedback form. Messages are stored for staff, with
 * the sender's e-mail, id and role; the name is always "Anonymous" (spec §6).
 */
export function SupportWidget({ user }: { user: AuthedUser | null }) {
  const { mobileMenuOpen, supportRequest } = useShellUi();
  const ref = useRef<HTMLDetailsElement>(null);
  const [kind, setKind] = useState<Kind>("chat");
  const [minimised, setMinimised] = useState(false);
  const fetcher = useFetcher<Reply>();
  useChatClearance(ref);

  useEffect(() => {
    if (mobileMenuOpen) {
      if (ref.current) ref.current.open = false;
      setMinimised(true);
      return;
    }
    const timer = setTimeout(() => setMinimised(false), CHAT_RESTORE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [mobileMenuOpen]);

  useEffect(() => {
    if (!supportRequest) return;
    setKind(supportRequest.kind);
    if (ref.current) ref.current.open = true;
  }, [supportRequest]);

  const sent = fetcher.state === "idle" && fetcher.data?.ok;
  return (
    <details className="support-widget" ref={ref} data-minimised={minimised ? "" : undefined} aria-hidden={minimised || undefined}>
      <summary>
        <ChatIcon className="support-widget__icon" size={24} />
        <span className="support-widget__label">{kind === "chat" ? "Chat with us" : "Share feedback"}</span>
      </summary>
      <div className="support-widget__panel">
        <div className="support-widget__tabs">
          <button type="button" aria-pressed={kind === "chat"} onClick={() => setKind("chat")}>
            Chat
          </button>
          <button type="button" aria-pressed={kind === "feedback"} onClick={() => setKind("feedback")}>
            Feedback
          </button>
        </div>
        {sent ? (
          <p role="status">Thanks! {kind === "chat" ? "We'll reply by e-mail as soon as we can." : "We read every idea."}</p>
        ) : (
          <fetcher.Form method="post" action="/support">
            <input type="hidden" name="kind" value={kind} />
            {user ? null : (
              <div className="field">
                <label htmlFor="support-email">Your e-mail (so we can reply)</label>
                <input id="support-email" name="email" type="email" autoComplete="email" />
              </div>
            )}
            <div className="field">
              <label htmlFor="support-message">{kind === "chat" ? "How can we help?" : "What would make Chorus better?"}</label>
              <textarea id="support-message" name="message" rows={4} required maxLength={4000} />
            </div>
            {fetcher.data?.errors ? <p className="field-error">{Object.values(fetcher.data.errors)[0]}</p> : null}
            <button className="button" type="submit" disabled={fetcher.state !== "idle"}>
              {fetcher.state !== "idle" ? "Sending…" : "Send"}
            </button>
          </fetcher.Form>
        )}
      </div>
    </details>
  );
}
