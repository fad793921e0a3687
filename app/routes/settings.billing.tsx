import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { subscriptionCheckoutInput } from "~/domain/commerce/memberships";
import { PRODUCT_NAME, PRODUCT_PLURAL, VIP_CARD_TEXT, VIP_CARD_TITLE } from "~/domain/product";
import { handleForm, readForm, type FormReply } from "~/lib/form.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { getUser, requireUser } from "~/services/accounts/current-user.server";
import {
  loadBillingPage,
  openBillingPortal,
  setMembershipCancelled,
  startMembershipCheckout,
  type BillingPage,
} from "~/services/commerce/memberships.server";

export const meta: MetaFunction = () => [{ title: `See Member Perks — ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await loadBillingPage(await getUser(request)), { headers: { "Cache-Control": "private, no-store" } });
}

const noInput = z.object({});

/**
 * Join a plan, or manage the membership (both go on to the payment service's own page), or keep a
 * membership cancelled to end with its period. Cancelling has a page of its own: it asks first.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") === "manage") {
    return handleForm(form, noInput, async () => redirect((await openBillingPortal(user)).url));
  }
  if (form.get("intent") === "keep") {
    return handleForm(form, noInput, async () => {
      const kept = await setMembershipCancelled(user, false);
      const description = kept.renewsOn ? `It renews on ${kept.renewsOn}.` : undefined;
      return redirectWithCookies("/settings/billing", [
        await toastHeader({ type: "success", title: "You're keeping your membership", description }),
      ]);
    });
  }
  return handleForm(form, subscriptionCheckoutInput, async ({ plan }) => redirect((await startMembershipCheckout(user, plan)).url));
}

export default function BillingPage() {
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const member = page.membership?.member ?? false;
  return (
    <div className="stack billing-page">
      <h1>See Member Perks</h1>
      <FormMessages formError={reply?.formError ?? reply?.errors?.plan} />
      {member && page.membership ? <Membership membership={page.membership} /> : <Plans page={page} />}
      {page.loggedIn ? <Invoices invoices={page.invoices} /> : null}
      {page.receipts.length > 0 ? <OtherReceipts receipts={page.receipts} /> : null}
    </div>
  );
}

function Membership({ membership }: { membership: NonNullable<BillingPage["membership"]> }) {
  return (
    <section className="card stack" aria-labelledby="membership-heading">
      <h2 id="membership-heading">You're a VIP member</h2>
      <p>Every {PRODUCT_NAME} you start is included, with its premium finish.</p>
      <dl className="billing-facts">
        {membership.plan ? (
          <>
            <dt>Plan</dt>
            <dd>
              {membership.plan.name} · {membership.plan.price}
            </dd>
          </>
        ) : null}
        <dt>Status</dt>
        <dd>{membership.status}</dd>
        {membership.renewsOn ? (
          <>
            <dt>Renews on</dt>
            <dd>{membership.renewsOn}</dd>
          </>
        ) : null}
        {membership.endsOn ? (
          <>
            <dt>Ends on</dt>
            <dd>{membership.endsOn}</dd>
          </>
        ) : null}
      </dl>
      {membership.canKeep ? (
        <Form method="post">
          <input type="hidden" name="intent" value="keep" />
          <p>Your membership ends on {membership.endsOn} and will not renew. You can keep it until then.</p>
          <SubmitButton pending="Keeping it…">Keep my membership</SubmitButton>
        </Form>
      ) : null}
      <div className="billing-actions">
        {membership.canManage ? (
          <Form method="post">
            <input type="hidden" name="intent" value="manage" />
            <SubmitButton pending="Opening…">Manage payment details</SubmitButton>
          </Form>
        ) : null}
        {membership.canCancel ? (
          <Link className="button button--secondary" to="/settings/billing/cancel">
            Cancel membership
          </Link>
        ) : null}
      </div>
    </section>
  );
}

function Plans({ page }: { page: BillingPage }) {
  return (
    <section className="stack" aria-labelledby="plans-heading">
      <div className="card">
        <h2 id="plans-heading">{VIP_CARD_TITLE}</h2>
        <p>{VIP_CARD_TEXT}</p>
        {page.loggedIn ? null : <p className="muted">You log in or create an account before you pay.</p>}
      </div>
      <div className="billing-plans">
        {page.plans.map((plan) => (
          <article key={plan.key} className="card stack billing-plan" aria-labelledby={`plan-${plan.key}`}>
            <h3 id={`plan-${plan.key}`}>{plan.name}</h3>
            <p className="billing-plan__price">{plan.price}</p>
            <ul>
              {plan.gives.map((give) => (
                <li key={give}>{give}</li>
              ))}
            </ul>
            <Form method="post">
              <SubmitButton name="plan" value={plan.key} pending="Opening the payment page…">
                Join for {plan.price}
              </SubmitButton>
            </Form>
          </article>
        ))}
      </div>
    </section>
  );
}

function Invoices({ invoices }: { invoices: BillingPage["invoices"] }) {
  return (
    <section className="card stack" aria-labelledby="invoices-heading">
      <h2 id="invoices-heading">Invoices</h2>
      {invoices.length === 0 ? (
        <p className="muted">No invoices yet. Receipts for your {PRODUCT_PLURAL} and your membership will be listed here.</p>
      ) : (
        <ul className="invoice-list">
          {invoices.map((invoice) => (
            <li key={invoice.id}>
              <div className="invoice-list__main">
                <Link to={`/settings/billing/invoices/${invoice.id}`}>{invoice.number}</Link>
                <strong>{invoice.amount}</strong>
              </div>
              <div className="invoice-list__meta">
                <span>{invoice.date}</span>
                <span>{invoice.what}</span>
                <span className={`badge ${invoice.status === "paid" ? "badge--ok" : "badge--muted"}`}>{invoice.statusLabel}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function OtherReceipts({ receipts }: { receipts: BillingPage["receipts"] }) {
  return (
    <section className="card stack" aria-labelledby="receipts-heading">
      <h2 id="receipts-heading">Postcards and orders by post</h2>
      <ul className="invoice-list">
        {receipts.map((receipt) => (
          <li key={receipt.id}>
            <div className="invoice-list__main">
              <Link to={`/receipts/${receipt.id}`}>{receipt.what}</Link>
              <strong>{receipt.amount}</strong>
            </div>
            <div className="invoice-list__meta">
              <span>{receipt.date}</span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
