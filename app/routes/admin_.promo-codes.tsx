import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { PauseCodeForm } from "~/components/admin/pause-code-form";
import { Pager, StaffNav } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages, SelectField } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { CURRENCY } from "~/domain/commerce/money";
import { promoCodeInput, promoCodeProducts } from "~/domain/commerce/staff-input";
import { PRODUCT_NAME } from "~/domain/product";
import { type FormReply, handleForm, readForm } from "~/lib/form.server";
import { pageParam } from "~/lib/params.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { createPromoCodeByStaff, listPromoCodesForStaff } from "~/services/staff/promo-codes.server";

export const meta: MetaFunction = () => [{ title: `Promo codes — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = pageParam(new URL(request.url));
  const { codes, hasMore } = await listPromoCodesForStaff(page);
  const products = promoCodeProducts().map((p) => ({ key: p.key, name: p.name }));
  return json({ page, codes, hasMore, products }, { headers: { "Cache-Control": "private, no-store" } });
}

/** The create form: a code is made, recorded as made by this administrator, and its page opens. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  return handleForm(
    form,
    promoCodeInput(new Date()),
    async (input) => {
      const code = await createPromoCodeByStaff(admin, input);
      return redirectWithCookies(`/admin/promo-codes/${code.id}`, [
        await toastHeader({ type: "success", title: `Code ${code.code} created` }),
      ]);
    },
    { lists: ["productKeys"] },
  );
}

const STATE_BADGE: Record<string, string> = {
  active: "badge--ok",
  paused: "badge--muted",
  expired: "badge--muted",
  "used up": "badge--muted",
};

export default function AdminPromoCodesPage() {
  const { page, codes, hasMore, products } = useLoaderData<typeof loader>();
  const reply = useActionData<FormReply>();
  const values = reply?.values ?? {};
  const chosen = new Set((values.productKeys ?? "").split(",").filter(Boolean));
  return (
    <div className="stack">
      <StaffNav />
      <h1>Promo codes</h1>
      {codes.length === 0 ? (
        <p className="card empty-state">No promo codes yet. Make the first one below.</p>
      ) : (
        <table className="table staff-table">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Kind</th>
              <th scope="col">Takes off</th>
              <th scope="col">Uses</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Pause or resume</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {codes.map((code) => (
              <tr key={code.id}>
                <td data-label="Code">
                  <Link to={`/admin/promo-codes/${code.id}`}>
                    <code>{code.code}</code>
                  </Link>
                </td>
                <td data-label="Kind">{code.kind === "percent" ? "Percent off" : "Amount off"}</td>
                <td data-label="Takes off">{code.description}</td>
                <td data-label="Uses">
                  {code.uses} / {code.limit ?? "no limit"}
                  {code.held ? <span className="muted">{` (${code.held} held by a payment in progress)`}</span> : null}
                </td>
                <td data-label="Expires">{code.expires ?? "never"}</td>
                <td data-label="State">
                  <span className={`badge ${STATE_BADGE[code.state]}`}>{code.state}</span>
                </td>
                <td>
                  <PauseCodeForm id={code.id} paused={code.paused} backToList />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} hasMore={hasMore} label="Pages of promo codes" />

      <section className="card" aria-labelledby="create-heading">
        <h2 id="create-heading">New code</h2>
        <FormMessages formError={reply?.formError && !reply.errors ? reply.formError : undefined} />
        <Form method="post" noValidate>
          <Field
            name="code"
            label="Code"
            hint="Letters, digits and dashes. Leave it empty and one is made up."
            autoCapitalize="characters"
            defaultValue={values.code}
            error={reply?.errors?.code}
          />
          <div className="row">
            <SelectField
              name="kind"
              label="Kind"
              options={[
                { value: "percent", label: "Percent off" },
                { value: "amount", label: `Amount off (${CURRENCY.toUpperCase()})` },
              ]}
              defaultValue={values.kind ?? "percent"}
              error={reply?.errors?.kind}
            />
            <Field
              name="value"
              label="How much"
              hint="A percentage (20), or dollars (2.50)."
              inputMode="decimal"
              defaultValue={values.value}
              error={reply?.errors?.value}
            />
          </div>
          <div className="row">
            <Field
              name="expiresOn"
              label="Last day it works"
              type="date"
              hint="Until the end of that day, UTC. Empty: it never expires."
              defaultValue={values.expiresOn}
              error={reply?.errors?.expiresOn}
            />
            <Field
              name="maxRedemptions"
              label="Uses in all"
              inputMode="numeric"
              hint="Empty: no limit."
              defaultValue={values.maxRedemptions}
              error={reply?.errors?.maxRedemptions}
            />
            <Field
              name="maxPerUser"
              label="Uses per person"
              inputMode="numeric"
              hint="Empty: no limit."
              defaultValue={values.maxPerUser}
              error={reply?.errors?.maxPerUser}
            />
          </div>
          <fieldset className="staff-choices" aria-describedby={reply?.errors?.productKeys ? "productKeys-error" : undefined}>
            <legend>Only on</legend>
            <p className="field-hint">Tick none and it takes off everything in the cart.</p>
            {products.map((product) => (
              <label key={product.key}>
                <input type="checkbox" name="productKeys" value={product.key} defaultChecked={chosen.has(product.key)} /> {product.name}
              </label>
            ))}
            {reply?.errors?.productKeys ? (
              <p className="field-error" id="productKeys-error">
                {reply.errors.productKeys}
              </p>
            ) : null}
          </fieldset>
          <label className="event-check">
            <input type="checkbox" name="firstPurchaseOnly" defaultChecked={values.firstPurchaseOnly === "on"} /> First purchase only
          </label>
          <SubmitButton pending="Creating…">Create code</SubmitButton>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
