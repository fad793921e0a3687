import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";

/** Pause or Resume one code: a plain form to the code's page, so it works without JavaScript. */
export function PauseCodeForm({ id, paused, backToList = false }: { id: string; paused: boolean; backToList?: boolean }) {
  return (
    <Form method="post" action={`/admin/promo-codes/${id}`} className="staff-inline-form">
      {backToList ? <input type="hidden" name="back" value="list" /> : null}
      <SubmitButton name="intent" value={paused ? "resume" : "pause"} pending={paused ? "Resuming…" : "Pausing…"}>
        {paused ? "Resume" : "Pause"}
      </SubmitButton>
    </Form>
  );
}
