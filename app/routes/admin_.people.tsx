import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { Pager, StaffNav, StaffSearch, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { pageParam } from "~/lib/params.server";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { searchPeople } from "~/services/staff/people.server";

export const meta: MetaFunction = () => [{ title: `People — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

// Accounts, newest first: administrators only, since a person's page shows their payments.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = pageParam(url);
  const { people, hasMore } = await searchPeople({ search: search || null, page });
  return json({ search, page, people, hasMore }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminPeoplePage() {
  const { search, page, people, hasMore } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <StaffNav />
      <h1>People</h1>
      <StaffSearch label="E-mail or name" placeholder="name@example.com or Ada Lovelace" search={search} allPath="/admin/people" />
      {people.length === 0 ? (
        <p className="card empty-state">{search ? `No one matches “${search}”.` : "No accounts yet."}</p>
      ) : (
        <table className="table staff-table">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Account</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {people.map((person) => (
              <tr key={person.id}>
                <td data-label="E-mail" className="staff-table__wrap">
                  <Link to={`/admin/people/${person.id}`}>{person.email}</Link>
                </td>
                <td data-label="Name">{person.name || "—"}</td>
                <td data-label="Role">{person.role}</td>
                <td data-label="Account">
                  {person.disabled ? (
                    <span className="badge badge--muted">Disabled</span>
                  ) : person.verified ? (
                    <span className="badge badge--ok">Active</span>
                  ) : (
                    <span className="badge">E-mail not confirmed</span>
                  )}
                </td>
                <td data-label="Joined">{staffTime(person.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} hasMore={hasMore} query={search ? { q: search } : {}} label="Pages of people" />
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
