import { useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";

/** A submit button that says it is working while its form is being sent. */
export function SubmitButton({ children, pending, name, value }: { children: ReactNode; pending: string; name?: string; value?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && (!name || navigation.formData?.get(name) === value);
  return (
    <button className="button" type="submit" name={name} value={value} disabled={busy} aria-disabled={busy || undefined}>
      {busy ? pending : children}
    </button>
  );
}
