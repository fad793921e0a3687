import { FormMessages } from "~/components/ui/field";
import type { PageOf } from "~/services/events/event-page-view";
import { FoldedSection } from "./event-fold";
import { IntentButton, IntentForm, useIntentReply } from "./event-intent-form";

type Page = PageOf<"creator">;

function InviteButton({ invitee }: { invitee: Page["invitees"][number] }) {
  if (!invitee.canInvite) return null;
  const row = { name: "rsvpId", value: invitee.id };
  return (
    <IntentForm intent="invite-one" section="invitees">
      <input type="hidden" name="rsvpId" value={invitee.id} />
      <IntentButton intent="invite-one" row={row} pending="Sending…" secondary>
        {invitee.invited ? "Send again" : "Send invitation"}
        <span className="visually-hidden"> to {invitee.name}</span>
      </IntentButton>
    </IntentForm>
  );
}

/** What the folded list says: how many people, and how far they got. */
function inviteesAbout(page: Page) {
  if (page.invitees.length === 0) return "No one yet";
  const people = `${page.invitees.length} ${page.invitees.length === 1 ? "person" : "people"}`;
  const waiting = page.notYetInvited ? ` · ${page.notYetInvited} to invite` : "";
  return `${people} · ${page.contributors.length} contributed${waiting}`;
}

/** Everyone invited, how to reach them and how far they got. */
export function EventInvitees({ page }: { page: Page }) {
  const reply = useIntentReply("invite-one", "invite-all");
  // Someone just added from the invite form shows up in the list, unfolded.
  const added = useIntentReply("invite");
  return (
    <FoldedSection id="invitees" heading="Invitees" about={inviteesAbout(page)} open={!!reply || !!added?.ok}>
      <div className="event-section__head">
        {page.collecting && page.notYetInvited > 0 ? (
          <IntentForm intent="invite-all" section="invitees">
            <IntentButton intent="invite-all" pending="Sending…">
              Invite everyone not yet invited ({page.notYetInvited})
            </IntentButton>
          </IntentForm>
        ) : null}
      </div>
      <FormMessages formError={reply?.formError} message={reply?.message} />
      {page.invitees.length === 0 ? (
        <p className="empty-note">No one yet. Add the people who should send a clip above.</p>
      ) : (
        <table className="table event-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Contact</th>
              <th scope="col">Channels</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.invitees.map((invitee) => (
              <tr key={invitee.id}>
                <th scope="row">{invitee.name}</th>
                <td data-label="Contact" className="event-table__contact">
                  {invitee.contact}
                </td>
                <td data-label="Channels">{invitee.channels}</td>
                <td data-label="Status">
                  <span className="badge">{invitee.status}</span>
                </td>
                <td>
                  <InviteButton invitee={invitee} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </FoldedSection>
  );
}
