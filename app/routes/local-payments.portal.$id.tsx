import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { handleForm, readForm } from "~/lib/form.server";
import { cancelFromLocalPortal, localPortal } from "~/services/payments/local/hosted.server";

export const meta: MetaFunction = () => [{ title: `Your membership — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

const notFound = () => new Response("Not found", { status: 404 });

/** The local payment service's billing portal: what Stripe's customer portal is when no Stripe keys are set. */
export async function loader({ params }: LoaderFunctionArgs) {
  const portal = await localPortal(params.id ?? "");
  if (!portal) throw notFound();
  return json({ portal });
}

const cancelInput = z.object({ subscription: z.string().min(1).max(100) });

export async function action({ request, params }: ActionFunctionArgs) {
  return handleForm(await readForm(request), cancelInput, async ({ subscription }) => {
    if (!(await cancelFromLocalPortal(params.id ?? "", subscription))) throw notFound();
    return redirect(new URL(request.url).pathname);
  });
}

const date = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

export default function LocalPortalPage() {
  const { portal } = useLoaderData<typeof loader>();
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
              {formatMoney(membership.amount, membership.currency)} a {membership.interval}
              {membership.status === "active" ? ` · renews on ${date(membership.renewsAt)}` : " · cancelled"}
            </p>
          </div>
          {membership.status === "active" ? (
            <Form method="post">
              <SubmitButton pending="Cancelling…" name="subscription" value={membership.id}>
                Cancel membership
              </SubmitButton>
            </Form>
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
