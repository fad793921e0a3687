import { useNavigate, useRevalidator } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { LOGOUT_FAILED_TOAST } from "~/domain/messages";
import { api } from "~/lib/browser/api-client";
import { useToast } from "./toasts";

/** A plain form post to /auth/logout; with JavaScript it calls the API and stays in the app. */
export function LogoutButton() {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const showToast = useToast();
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await api.post("/v2/auth/logout");
      // The API left a "logged out" toast in a cookie; the next page shows it. Remix did not see
      // this request, so a plain navigation would keep the root loader's data (the user, no
      // toast): revalidating makes the navigation run every loader, root's included.
      navigate("/", { replace: true });
      revalidator.revalidate();
    } catch (error) {
      if ((error as Error).name !== "AbortError") {
        showToast(LOGOUT_FAILED_TOAST);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" action="/auth/logout" onSubmit={onSubmit}>
      <button type="submit" disabled={busy}>
        {busy ? "Logging out…" : "Log Out"}
      </button>
    </form>
  );
}
