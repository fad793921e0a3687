import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { Pager, StaffNav, staffTime } from "~/components/admin/staff-pages";
import { AnnouncementLine } from "~/components/shell/announcement-banner";
import { PageError } from "~/components/shell/page-error";
import { Field, FormMessages, SelectField } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import type { AnnouncementItem } from "~/domain/announcements";
import { PRODUCT_NAME } from "~/domain/product";
import { announcementInput } from "~/domain/staff-input";
import { type FormReply, handleForm, readForm } from "~/lib/form.server";
import { pageParam } from "~/lib/params.server";
import { redirectWithCookies } from "~/lib/redirects.server";
import { toastHeader } from "~/lib/toast.server";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { createAnnouncementByStaff, endAnnouncementNow, listAnnouncementsForStaff } from "~/services/staff/announcements.server";

export const meta: MetaFunction = () => [{ title: `Announcements — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

// The site's banner (spec §2.2, §9): written, scheduled, previewed and ended by administrators.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = pageParam(new URL(request.url));
  return json({ page, ...(await listAnnouncementsForStaff(page)) }, { headers: { "Cache-Control": "private, no-store" } });
}

interface AnnouncementReply extends FormReply {
  preview?: AnnouncementItem;
}

const endInput = z.object({ id: z.string().uuid("There is no announcement with this id.") });

/** Preview (the same page, with the banner as it will look), Create, or End now. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "end") {
    return handleForm(form, endInput, async ({ id }) => {
      await endAnnouncementNow(admin, id);
      return redirectWithCookies("/admin/announcements", [await toastHeader({ type: "success", title: "The announcement has ended" })]);
    });
  }
  return handleForm(form, announcementInput(new Date()), async (input) => {
    if (intent === "preview") {
      const values = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
      return json<AnnouncementReply>({ values, preview: { type: input.kind, message: input.message, link: input.link } });
    }
    const made = await createAnnouncementByStaff(admin, input);
    const title = made.startsAt && made.startsAt > new Date() ? "Announcement scheduled" : "Announcement live";
    return redirectWithCookies("/admin/announcements", [await toastHeader({ type: "success", title })]);
  });
}

const STATE_BADGE = { live: "badge--ok", scheduled: "", ended: "badge--muted" } as const;

/** A stored time as a datetime-local field shows it, in UTC like every staff time. */
const whenText = (iso: string | null, fallback: string) => (iso ? staffTime(iso) : fallback);

export default function AdminAnnouncementsPage() {
  const { page, announcements, hasMore } = useLoaderData<typeof loader>();
  const reply = useActionData<AnnouncementReply>();
  const values = reply?.values ?? {};
  const errors = reply?.errors ?? {};
  return (
    <div className="stack">
      <StaffNav />
      <h1>Announcements</h1>
      <section className="card" aria-labelledby="new-heading">
        <h2 id="new-heading">New announcement</h2>
        <p className="field-hint">It shows at the bottom of every page while it is live. A promotion is green, anything else yellow.</p>
        <FormMessages formError={reply?.formError && !reply.errors ? reply.formError : undefined} />
        {reply?.preview ? (
          <div className="stack" aria-label="Preview">
            <p className="field-hint">As it will look:</p>
            <div className="announcement-preview">
              <AnnouncementLine item={reply.preview} />
            </div>
          </div>
        ) : null}
        <Form method="post" noValidate>
          <Field name="message" label="Message" maxLength={280} defaultValue={values.message} error={errors.message} />
          <div className="row">
            <SelectField
              name="kind"
              label="Kind"
              options={[
                { value: "notice", label: "Notice (yellow)" },
                { value: "promotion", label: "Promotion (green)" },
              ]}
              defaultValue={values.kind ?? "notice"}
              error={errors.kind}
            />
            <Field
              name="link"
              label="Link (optional)"
              hint="A page of this site (/pricing) or an https:// address."
              defaultValue={values.link}
              error={errors.link}
            />
          </div>
          <div className="row">
            <Field
              name="startsAt"
              label="Starts (UTC)"
              type="datetime-local"
              hint="Empty: now."
              defaultValue={values.startsAt}
              error={errors.startsAt}
            />
            <Field
              name="endsAt"
              label="Ends (UTC)"
              type="datetime-local"
              hint="Empty: until it is ended here."
              defaultValue={values.endsAt}
              error={errors.endsAt}
            />
          </div>
          <div className="row">
            <SubmitButton name="intent" value="preview" pending="Previewing…">
              Preview
            </SubmitButton>
            <SubmitButton name="intent" value="create" pending="Saving…">
              Create
            </SubmitButton>
          </div>
        </Form>
      </section>

      <section aria-labelledby="list-heading" className="stack">
        <h2 id="list-heading">All announcements</h2>
        {announcements.length === 0 ? (
          <p className="card empty-state">No announcements yet.</p>
        ) : (
          <table className="table staff-table">
            <thead>
              <tr>
                <th scope="col">Banner</th>
                <th scope="col">From</th>
                <th scope="col">Until</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">End now</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {announcements.map((item) => (
                <tr key={item.id}>
                  <td data-label="Banner">
                    <div className="announcement-preview">
                      <AnnouncementLine item={{ type: item.kind, message: item.message, link: item.link }} />
                    </div>
                  </td>
                  <td data-label="From">{whenText(item.startsAt, staffTime(item.createdAt))}</td>
                  <td data-label="Until">{whenText(item.endsAt, "until ended")}</td>
                  <td data-label="State">
                    <span className={`badge ${STATE_BADGE[item.state]}`}>{item.state}</span>
                  </td>
                  <td>
                    {item.state === "ended" ? null : (
                      <Form method="post" className="staff-inline-form">
                        <input type="hidden" name="id" value={item.id} />
                        <SubmitButton name="intent" value="end" pending="Ending…">
                          End now
                        </SubmitButton>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <Pager page={page} hasMore={hasMore} label="Pages of announcements" />
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
