import { Form, useActionData, useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { EventFormReply } from "~/services/events/event-page-view";

/**
 * One of the event page's forms: a plain POST to the page itself with a hidden `intent`,
 * so it works without JavaScript. It posts to the page's own address (keeping a
 * `privateKey`), and `section` brings the reader back to the form's part of the page.
 */
export function IntentForm({
  intent,
  section,
  children,
  className,
}: {
  intent: string;
  section?: string;
  children: ReactNode;
  className?: string;
}) {
  const { pathname, search } = useLocation();
  return (
    <Form method="post" action={`${pathname}${search}${section ? `#${section}` : ""}`} className={className} noValidate>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}

/** A submit button that says it is working while its own form (and row, if `row` is given) is sent. */
export function IntentButton({
  intent,
  row,
  pending,
  secondary,
  children,
}: {
  intent: string;
  row?: { name: string; value: string };
  pending: string;
  secondary?: boolean;
  children: ReactNode;
}) {
  const navigation = useNavigation();
  const sent = navigation.state === "submitting" ? navigation.formData : undefined;
  const busy = !!sent && sent.get("intent") === intent && (!row || sent.get(row.name) === row.value);
  return (
    <button className={secondary ? "button button--secondary" : "button"} type="submit" disabled={busy} aria-disabled={busy || undefined}>
      {busy ? pending : children}
    </button>
  );
}

/** The last action's answer, if it came from one of these forms. */
export function useIntentReply(...intents: string[]) {
  const reply = useActionData<EventFormReply>();
  return reply && intents.includes(reply.intent) ? reply : undefined;
}
