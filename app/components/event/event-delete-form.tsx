import { FoldedSection } from "./event-fold";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

/** Deleting hides the Chorus from everyone but its organiser, who can bring it back. */
export function EventDeleteForm() {
  const reply = useIntentReply("delete");
  return (
    <FoldedSection id="delete" heading="Delete this Chorus" about="Hide it from everyone but you" open={!!reply} className="event-danger">
      <p>Contributors, the recipient and view-only links will no longer open it. You can restore it from this page.</p>
      <IntentForm intent="delete">
        <IntentButton intent="delete" pending="Deleting…" secondary>
          Delete this Chorus
        </IntentButton>
      </IntentForm>
    </FoldedSection>
  );
}

export function EventDeletedNotice() {
  return (
    <section className="card event-section event-danger" aria-labelledby="deleted-heading">
      <h2 id="deleted-heading">This Chorus is deleted</h2>
      <p>Only you can see it. Its links show "not found" to everyone else until you restore it.</p>
      <IntentForm intent="restore">
        <IntentButton intent="restore" pending="Restoring…">
          Restore
        </IntentButton>
      </IntentForm>
    </section>
  );
}
