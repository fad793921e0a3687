import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageError } from "~/components/shell/page-error";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { handleForm, readForm } from "~/lib/form.server";
import { changeFromLocalPortal, localPortal, type LocalPortalMembership } from "~/services/payments/local/hosted.server";

export const meta: MetaFunction = () => [{ title: `Your membership — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

const notFound = () => new Response("Not found", { status: 404 });

/**
 * The local payment service's billing portal: what Stripe's customer portal is when no Stripe keys
 * are set. As there, cancelling asks first (`?cancel={subscription}` is the confirmation step, a page
 * of its own so it works without JavaScript), ends the membership with the period paid for, and
 * can be taken back ("Renew membership") until then.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const portal = await localPortal(params.id ?? "");
  if (!portal) throw notFound();
  const asked = new URL(request.url).searchParams.get("cancel");
  const confirming = portal.memberships.find((m) => m.id === asked && m.status === "active" && !m.cancelAtPeriodEnd) ?? null;
  return json({ portal, confirming });
}

const changeInput = z.object({ intent: z.enum(["cancel", "renew"]), subscription: z.string().min(1).max(100) });

export async function action({ request, params }: ActionFunctionArgs) {
  return handleForm(await readForm(request), changeInput, async ({ intent, subscription }) => {
    if (!(await changeFromLocalPortal(params.id ?? "", subscription, intent === "cancel"))) throw notFound();
    return redirect(new URL(request.url).pathname);
  });
}

const date = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

const priceOf = (membership: LocalPortalMembership) => `${formatMoney(membership.amount, membership.currency)} a ${membership.interval}`;

export default function LocalPortalPage() {
  const { portal, confirming } = useLoaderData<typeof loader>();
  if (confirming) return <ConfirmCancel portalId={portal.id} membership={confirming} />;
  return (
    <div className="card form-card stack">
      <p className="badge">Test billing: nothing is charged</p>
      <h1>Your membership</h1>
      {portal.email ? <p>Signed in as {portal.email}</p> : null}
      {portal.memberships.length === 0 ? <p>You have no membership.</p> : null}
      {portal.memberships.map((membership) => (
        <section key={membership.id} className="local-portal__membership">
          <div>
            <h2>{membership.name}</h2>
            <p>
              {priceOf(membership)}
              {membership.status !== "active"
                ? " · cancelled"
                : membership.cancelAtPeriodEnd
                  ? ` · ends on ${date(membership.periodEnd)}`
                  : ` · renews on ${date(membership.periodEnd)}`}
            </p>
          </div>
          {membership.status === "active" && membership.cancelAtPeriodEnd ? (
            <Form method="post">
              <input type="hidden" name="intent" value="renew" />
              <SubmitButton pending="Renewing…" name="subscription" value={membership.id}>
                Renew membership
              </SubmitButton>
            </Form>
          ) : membership.status === "active" ? (
            <a className="button button--secondary" href={`?cancel=${encodeURIComponent(membership.id)}`}>
              Cancel membership
            </a>
          ) : null}
        </section>
      ))}
      {portal.returnUrl ? (
        <p>
          <a href={portal.returnUrl}>Back to {PRODUCT_NAME}</a>
        </p>
      ) : null}
    </div>
  );
}

/** The confirmation step: what cancelling means, before it is done. */
function ConfirmCancel({ portalId, membership }: { portalId: string; membership: LocalPortalMembership }) {
  return (
    <div className="card form-card stack">
      <p className="badge">Test billing: nothing is charged</p>
      <h1>Cancel your membership?</h1>
      <p>
        {membership.name} ({priceOf(membership)}) stays active until <strong>{date(membership.periodEnd)}</strong>, the end of the period
        you paid for, and is not charged again. You can renew it until then.
      </p>
      <Form method="post" action={`/local-payments/portal/${portalId}`}>
        <input type="hidden" name="intent" value="cancel" />
        <SubmitButton pending="Cancelling…" name="subscription" value={membership.id}>
          Cancel membership
        </SubmitButton>
      </Form>
      <p>
        <a href={`/local-payments/portal/${portalId}`}>Go back</a>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <PageError
      words={{ 404: { title: "There is no such billing page", text: "It may have expired. Open it again from your billing settings." } }}
    />
  );
}
