import { createContext, useContext, useMemo, useState, type ReactNode } from "react";

interface ShellUi {
  mobileMenuOpen: boolean;
  setMobileMenuOpen: (open: boolean) => void;
  /** Which form the support widget shows when opened from a footer link. */
  supportRequest: { kind: "chat" | "feedback"; at: number } | null;
  openSupport: (kind: "chat" | "feedback") => void;
}

const ShellUiContext = createContext<ShellUi | null>(null);

/** State the shell's pieces share: the mobile menu hides the chat widget while it is open. */
export function ShellUiProvider({ children }: { children: ReactNode }) {
  const [mobileMenuOpen, setMobileMenuOpen] = useState(false);
  const [supportRequest, setSupportRequest] = useState<ShellUi["supportRequest"]>(null);
  const value = useMemo(
    () => ({
      mobileMenuOpen,
      setMobileMenuOpen,
      supportRequest,
      openSupport: (kind: "chat" | "feedback") => setSupportRequest({ kind, at: Date.now() }),
    }),
    [mobileMenuOpen, supportRequest],
  );
  return <ShellUiContext.Provider value={value}>{children}</ShellUiContext.Provider>;
}

export function useShellUi(): ShellUi {
  const value = useContext(ShellUiContext);
  if (!value) throw new Error("useShellUi needs ShellUiProvider");
  return value;
}
