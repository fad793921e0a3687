import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { PauseCodeForm } from "~/components/admin/pause-code-form";
import { StaffActions, StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { FormMessages } from "~/components/ui/field";
import { PRODUCT_NAME } from "~/domain/product";
import { type FormReply, handleForm, readForm } from "~/lib/form.server";
import { asPageError } from "~/lib/http.server";
import { uuidParam } from "~/lib/params.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { promoCodeDetailForStaff, setPromoCodePausedByStaff } from "~/services/staff/promo-codes.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.code.code ?? "Promo code"} — Admin — ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  try {
    return json(await promoCodeDetailForStaff(uuidParam(params.id, "promo code")), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    throw asPageError(error);
  }
}

const pauseInput = z.object({
  intent: z.enum(["pause", "resume"], { error: "Choose Pause or Resume." }),
  back: z.enum(["list"]).optional(),
});

/** Pause or Resume, from this page or the list (which it goes back to). */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  return handleForm(form, pauseInput, async ({ intent, back }) => {
    const id = uuidParam(params.id, "promo code");
    const { code, changed } = await setPromoCodePausedByStaff(admin, id, intent === "pause");
    const title = !changed
      ? `${code.code} was already ${code.paused ? "paused" : "active"}`
      : code.paused
        ? `${code.code} is paused: nobody can use it until it is resumed`
        : `${code.code} works again`;
    const to = back === "list" ? "/admin/promo-codes" : `/admin/promo-codes/${id}`;
    return redirectWithCookies(to, [await toastHeader({ type: "success", title })]);
  });
}

export default function AdminPromoCodePage() {
  const { code, redemptions, actions } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  return (
    <div className="stack">
      <StaffNav />
      <p>
        <Link to="/admin/promo-codes">← All promo codes</Link>
      </p>
      <h1>
        <code>{code.code}</code> <span className={`badge ${code.state === "active" ? "badge--ok" : "badge--muted"}`}>{code.state}</span>
      </h1>
      <section className="card" aria-labelledby="code-heading">
        <h2 id="code-heading">{code.description}</h2>
        <FormMessages formError={reply?.formError ?? reply?.errors?.intent} />
        <dl className="staff-facts">
          <dt>Uses</dt>
          <dd>
            {code.uses} of {code.limit ?? "no limit"}
            {code.held ? `, and ${code.held} held by a payment in progress` : null}
          </dd>
          <dt>Per person</dt>
          <dd>{code.perUser ?? "no limit"}</dd>
          <dt>Expires</dt>
          <dd>{code.expires ?? "never"}</dd>
          <dt>Only on</dt>
          <dd>{code.products.length ? code.products.join(", ") : "everything in the cart"}</dd>
          <dt>First purchase only</dt>
          <dd>{code.firstPurchaseOnly ? "yes" : "no"}</dd>
          {code.owner ? (
            <>
              <dt>Personal code of</dt>
              <dd>{code.owner}</dd>
            </>
          ) : null}
          <dt>Created</dt>
          <dd>{staffTime(code.createdAt)}</dd>
        </dl>
        <PauseCodeForm id={code.id} paused={code.paused} />
      </section>
      <section className="card" aria-labelledby="redemptions-heading">
        <h2 id="redemptions-heading">Redemptions</h2>
        {redemptions.length === 0 ? (
          <p className="field-hint">Nobody has used this code yet.</p>
        ) : (
          <table className="table staff-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Buyer</th>
                <th scope="col">Took off</th>
                <th scope="col">Chorus</th>
                <th scope="col">Invoice</th>
              </tr>
            </thead>
            <tbody>
              {redemptions.map((r) => (
                <tr key={r.id}>
                  <td data-label="When">{staffTime(r.at)}</td>
                  <td data-label="Buyer" className="staff-table__wrap">
                    {r.buyerEmail}
                  </td>
                  <td data-label="Took off">{r.discount}</td>
                  <td data-label="Chorus">{r.chorus ? <a href={`/e/${r.chorus.uuid}`}>{r.chorus.title}</a> : "—"}</td>
                  <td data-label="Invoice">{r.invoiceNumber ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <StaffActions actions={actions} empty="No staff action on this code yet." />
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
