import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pager, StaffNav, StaffSearch, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { isAdmin } from "~/domain/membership";
import { PRODUCT_NAME } from "~/domain/product";
import { pageParam } from "~/lib/params.server";
import { requireStaff } from "~/services/accounts/current-user.server";
import { searchChoruses } from "~/services/staff/choruses.server";

export const meta: MetaFunction = () => [{ title: `Choruses — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

// Every Chorus, newest first, for staff: editors read it too; the organiser's page is for administrators.

export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireStaff(request);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const page = pageParam(url);
  const { choruses, hasMore } = await searchChoruses({ search: search || null, page });
  return json({ admin: isAdmin(staff), search, page, choruses, hasMore }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminChorusesPage() {
  const { admin, search, page, choruses, hasMore } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <StaffNav admin={admin} />
      <h1>Choruses</h1>
      <StaffSearch label="Title, event id or uuid" placeholder="Grandma's 90th or 123456" search={search} allPath="/admin/choruses" />
      {choruses.length === 0 ? (
        <p className="card empty-state">{search ? `No Chorus matches “${search}”.` : "No Choruses yet."}</p>
      ) : (
        <table className="table staff-table">
          <thead>
            <tr>
              <th scope="col">Chorus</th>
              <th scope="col">Organiser</th>
              <th scope="col">State</th>
              <th scope="col">Renders</th>
            </tr>
          </thead>
          <tbody>
            {choruses.map((chorus) => (
              <tr key={chorus.id}>
                <td data-label="Chorus" className="staff-table__wrap">
                  <a href={`/e/${chorus.uuid}`}>{chorus.title}</a>
                  <br />
                  <span className="field-hint">
                    {chorus.code} · {staffTime(chorus.createdAt)}
                  </span>
                </td>
                <td data-label="Organiser" className="staff-table__wrap">
                  {admin ? <Link to={`/admin/people/${chorus.organiser.id}`}>{chorus.organiser.email}</Link> : chorus.organiser.email}
                </td>
                <td data-label="State">
                  {chorus.paid ? <span className="badge badge--ok">Paid</span> : <span className="badge badge--muted">Not paid</span>}{" "}
                  {chorus.published ? <span className="badge">Published</span> : null}{" "}
                  {chorus.takenDown ? <span className="badge badge--muted">Taken down</span> : null}{" "}
                  {chorus.deleted ? <span className="badge badge--muted">Deleted</span> : null}
                </td>
                <td data-label="Renders">
                  {chorus.renders.length === 0 ? (
                    "—"
                  ) : (
                    <ul className="staff-renders-list">
                      {chorus.renders.map((render) => (
                        <li key={render.id}>
                          <strong>{render.status}</strong> · {render.resolution} · {staffTime(render.createdAt)}
                          {render.renderSeconds !== null ? ` · took ${render.renderSeconds} s` : ""}
                          {render.attempts > 1 ? ` · ${render.attempts} attempts` : ""}
                          {render.error ? <span className="field-hint"> · {render.error}</span> : null}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} hasMore={hasMore} query={search ? { q: search } : {}} label="Pages of Choruses" />
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
