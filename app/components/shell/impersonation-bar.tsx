import type { AuthedUser } from "~/domain/membership";

/** Admin tools bar: while an admin acts as someone else, say so and offer the way back. */
export function ImpersonationBar({ user }: { user: AuthedUser }) {
  return (
    <div className="impersonation-bar" role="status">
      <span>You are acting as {user.email}.</span>
      <form method="post" action="/admin/stop-impersonating">
        <button type="submit">Stop impersonating</button>
      </form>
    </div>
  );
}
