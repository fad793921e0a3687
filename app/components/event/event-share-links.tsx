import { useEffect, useRef, useState } from "react";
import type { PageOf } from "~/services/events/event-page-view";
import { FoldedSection } from "./event-fold";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

/** A read-only link with a Copy button; the button appears once JavaScript can use the clipboard. */
function CopyField({ id, label, hint, value }: { id: string; label: string; hint: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [canCopy, setCanCopy] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setCanCopy(true), []);
  useEffect(() => setCopied(false), [value]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard permission (or an old browser): select it so a long-press or Ctrl+C does it.
      input.current?.select();
    }
  }

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      <div className="event-copy">
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          value={value}
          aria-describedby={`${id}-hint`}
          onFocus={(e) => e.currentTarget.select()}
        />
        {canCopy ? (
          <button type="button" className="button button--secondary" onClick={copy}>
            {copied ? "Copied!" : "Copy"}
          </button>
        ) : null}
      </div>
      <span className="visually-hidden" role="status">
        {copied ? `${label} copied` : ""}
      </span>
    </div>
  );
}

function RotateForm({ intent, what }: { intent: "rotate-private-key" | "rotate-view-key"; what: string }) {
  return (
    <IntentForm intent={intent} section="share" className="event-rotate">
      <p className="field-hint">Shared it with the wrong person? A new link replaces it: the old {what} link stops working.</p>
      <IntentButton intent={intent} pending="Making a new link…" secondary>
        Get a new link
      </IntentButton>
    </IntentForm>
  );
}

/** Whether the recipient's and view-only links play the video yet, and where paying for it is. */
interface ShareAccess {
  unlocked: boolean;
  cartPath: string;
}

export function EventShareLinks({ links, access }: { links: PageOf<"creator">["shareLinks"]; access: ShareAccess }) {
  const reply = useIntentReply("rotate-private-key", "rotate-view-key");
  // Before payment these two links say the video is on its way and show none of it
  // (docs/decisions/045): they are not yet links to send as the gift.
  const opens = access.unlocked ? "It opens their video." : "It opens their video once this Chorus is paid for.";
  return (
    <FoldedSection id="share" heading="Share links" about="Links to contribute, to receive, to watch" open={!!reply}>
      <CopyField
        id="link-contribute"
        label="Contributor link"
        hint="Anyone with this link can add a clip while the Chorus is collecting."
        value={links.contribute}
      />
      {access.unlocked ? null : (
        <p className="empty-note" id="links-locked">
          The recipient's and view-only links play the video once you pay for this Chorus. Until then they say the video is on its way and
          show none of it; paying also unlocks delivery and the full-quality download. <a href={access.cartPath}>Go to checkout</a>
        </p>
      )}
      <div className="event-link-group">
        <CopyField
          id="link-recipient"
          label="Recipient's private link"
          hint={`Only for the person the Chorus is for. ${opens}`}
          value={links.recipient}
        />
        <RotateForm intent="rotate-private-key" what="recipient" />
      </div>
      <div className="event-link-group">
        <CopyField
          id="link-view"
          label="View-only link"
          hint={
            access.unlocked
              ? "For people who should watch the finished video but not add to it."
              : "For people who should watch the finished video but not add to it, once this Chorus is paid for."
          }
          value={links.viewOnly}
        />
        <RotateForm intent="rotate-view-key" what="view-only" />
      </div>
    </FoldedSection>
  );
}
