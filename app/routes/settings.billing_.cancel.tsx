import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { PRODUCT_NAME, PRODUCT_PLURAL } from "~/domain/product";
import { handleForm, readForm, type FormReply } from "~/lib/form.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/services/accounts/current-user.server";
import { cancellationView, setMembershipCancelled } from "~/services/commerce/memberships.server";

export const meta: MetaFunction = () => [{ title: `Cancel your membership — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/**
 * The confirmation step of cancelling a VIP membership (docs/decisions/047): what cancelling means,
 * before it is done. A page of its own, so it asks without JavaScript too; with no membership to
 * cancel (none, a legacy plan, or one already ending) it goes back to the billing page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const cancellation = cancellationView(await requireUser(request));
  if (!cancellation) throw redirect("/settings/billing");
  return json({ cancellation }, { headers: { "Cache-Control": "private, no-store" } });
}

const confirmInput = z.object({});

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return handleForm(await readForm(request), confirmInput, async () => {
    const membership = await setMembershipCancelled(user, true);
    const description = membership.endsOn ? `It ends on ${membership.endsOn}. You can keep it until then.` : undefined;
    return redirectWithCookies("/settings/billing", [
      await toastHeader({ type: "success", title: "Your membership is cancelled", description }),
    ]);
  });
}

export default function CancelMembershipPage() {
  const { cancellation } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  return (
    <div className="card form-card stack">
      <h1>Cancel your membership?</h1>
      <FormMessages formError={reply?.formError} />
      <p>
        {cancellation.plan ? `${cancellation.plan.name} (${cancellation.plan.price})` : "Your membership"} stays active until{" "}
        <strong>{cancellation.endsOn}</strong>, the end of the period you paid for, and you will not be charged again. Until then every{" "}
        {PRODUCT_NAME} you start is included, and you can keep your membership after all.
      </p>
      <p>
        The {PRODUCT_PLURAL} you started or checked out as a member stay included when it ends: they can be delivered and downloaded, with
        the premium finish. One you started before you joined and have not checked out will need paying for; checking it out now costs
        nothing.
      </p>
      <Form method="post">
        <SubmitButton pending="Cancelling…">Cancel membership</SubmitButton>
      </Form>
      <p>
        <Link to="/settings/billing">Keep my membership</Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
