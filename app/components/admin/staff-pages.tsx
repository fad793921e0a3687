import { Form, Link, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";

// Pieces shared by the staff pages: their navigation, times, paging and the record of what staff did.

/** "2030-12-31 18:05 UTC": the same on the server and in every browser. */
export const staffTime = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** The staff pages this member of staff may open: editors moderate reports and look Choruses up. */
export function StaffNav({ admin = true }: { admin?: boolean }) {
  return (
    <nav className="staff-nav" aria-label="Staff pages">
      <Link to="/admin">Admin</Link>
      <NavLink to="/admin/reports">Reports</NavLink>
      <NavLink to="/admin/choruses">Choruses</NavLink>
      {admin ? (
        <>
          <NavLink to="/admin/people">People</NavLink>
          <NavLink to="/admin/queues">Queue health</NavLink>
          <NavLink to="/admin/announcements">Announcements</NavLink>
          <NavLink to="/admin/payments">Payments and refunds</NavLink>
          <NavLink to="/admin/trees">Trees</NavLink>
          <NavLink to="/admin/postcards">Postcards</NavLink>
          <NavLink to="/admin/orders">Orders by post</NavLink>
          <NavLink to="/admin/promo-codes">Promo codes</NavLink>
          <NavLink to="/admin/audit">Audit log</NavLink>
        </>
      ) : null}
    </nav>
  );
}

/** A staff list's search box (a plain GET form, so it works without JavaScript), with "Show all" once searched. */
export function StaffSearch({
  label,
  placeholder,
  search,
  allPath,
}: {
  label: string;
  placeholder: string;
  search: string;
  allPath: string;
}) {
  return (
    <Form method="get" className="staff-search" role="search">
      <div className="field">
        <label htmlFor="q">{label}</label>
        <input id="q" name="q" type="search" defaultValue={search} placeholder={placeholder} />
      </div>
      <button className="button" type="submit">
        Search
      </button>
      {search ? <Link to={allPath}>Show all</Link> : null}
    </Form>
  );
}

/** Links to the newer and older pages of a list; `query` is kept on both. */
export function Pager({ page, hasMore, query, label }: { page: number; hasMore: boolean; query?: Record<string, string>; label: string }) {
  if (page <= 1 && !hasMore) return null;
  const to = (n: number) => `?${new URLSearchParams({ ...query, ...(n > 1 ? { page: String(n) } : {}) }).toString()}`;
  return (
    <nav className="staff-pager" aria-label={label}>
      {page > 1 ? (
        <Link to={to(page - 1)} rel="prev">
          ← Newer
        </Link>
      ) : (
        <span />
      )}
      <span>Page {page}</span>
      {hasMore ? (
        <Link to={to(page + 1)} rel="next">
          Older →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

export interface StaffActionItem {
  id: string;
  at: string;
  by: string;
  what: string;
  reason: string | null;
  reference: string | null;
}

/** The last things staff did to a payment or a code, newest first. */
export function StaffActions({ actions, empty }: { actions: StaffActionItem[]; empty: ReactNode }) {
  return (
    <section className="card" aria-labelledby="staff-actions-heading">
      <h2 id="staff-actions-heading">Staff actions</h2>
      {actions.length === 0 ? (
        <p className="field-hint">{empty}</p>
      ) : (
        <ol className="staff-actions">
          {actions.map((action) => (
            <li key={action.id}>
              <strong>{action.what}</strong>
              <span className="field-hint">
                {" "}
                — {action.by}, {staffTime(action.at)}
                {action.reference ? ` (${action.reference})` : null}
              </span>
              {action.reason ? <p className="staff-actions__reason">{action.reason}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
