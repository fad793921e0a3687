import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { SubmitButton } from "~/components/ui/submit-button";
import { PRODUCT_NAME } from "~/domain/product";
import { asPageError } from "~/lib/http.server";
import { unsubscribeLinkTarget, unsubscribe } from "~/services/invitations/invitations.server";

export const meta: MetaFunction = () => [{ title: `Unsubscribe — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("t");

/** Looking at the link changes nothing: mail scanners open links, so only the button's POST unsubscribes. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const { rsvp, headline } = await unsubscribeLinkTarget(params.rsvpId, tokenOf(request));
    return json({ headline, done: !!rsvp.unsubscribedAt });
  } catch (error) {
    throw asPageError(error);
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  try {
    await unsubscribe(params.rsvpId, tokenOf(request));
    return json({ done: true });
  } catch (error) {
    throw asPageError(error);
  }
}

export default function UnsubscribePage() {
  const { headline, done: already } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const about = headline ? `about ${headline}` : `about this ${PRODUCT_NAME}`;
  if (reply?.done || already) {
    return (
      <div className="card form-card">
        <h1>You're unsubscribed</h1>
        <p role="status">
          You won't get any more invitations, reminders or messages {about}. Changed your mind? Ask the organiser to invite you again.
        </p>
      </div>
    );
  }
  return (
    <div className="card form-card">
      <h1>Stop messages about this {PRODUCT_NAME}?</h1>
      <p>
        You won't get any more invitations, reminders or messages {about}. Other {PRODUCT_NAME}s are not affected.
      </p>
      <Form method="post">
        <SubmitButton pending="Unsubscribing…">Unsubscribe</SubmitButton>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <PageError
      words={{
        404: {
          title: "This unsubscribe link is not valid",
          text: "It may be incomplete: try opening it again from the message, or copy the whole link into your browser.",
        },
      }}
    />
  );
}
