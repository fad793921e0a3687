import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";

export interface ToastMessage {
  id: string;
  type: "success" | "error" | "info";
  title: string;
  description?: string;
}

type ShowToast = (toast: Omit<ToastMessage, "id">) => void;

const ToastContext = createContext<ShowToast>(() => {});
/** Shows a toast from the browser; toasts from the server arrive through the root loader. */
export const useToast = () => useContext(ToastContext);

const AUTO_DISMISS_MS = 6000;
let counter = 0;

export function ToastProvider({ serverToast, children }: { serverToast: Omit<ToastMessage, "id"> | null; children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastMessage[]>([]);
  const show = useCallback<ShowToast>((toast) => setToasts((list) => [...list, { ...toast, id: `t${++counter}` }]), []);
  const dismiss = (id: string) => setToasts((list) => list.filter((t) => t.id !== id));

  useEffect(() => {
    if (serverToast) show(serverToast);
  }, [serverToast, show]);

  useEffect(() => {
    if (!toasts.length) return;
    const timer = setTimeout(() => setToasts((list) => list.slice(1)), AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [toasts]);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast--${toast.type}`}>
            <strong>{toast.title}</strong>
            {toast.description ? <p>{toast.description}</p> : null}
            <button type="button" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** The server's toast rendered into the HTML, for browsers without JavaScript. */
export function StaticToast({ toast }: { toast: Omit<ToastMessage, "id"> | null }) {
  if (!toast) return null;
  return (
    <noscript>
      <div className="toasts">
        <div className={`toast toast--${toast.type}`}>
          <strong>{toast.title}</strong>
          {toast.description ? <p>{toast.description}</p> : null}
        </div>
      </div>
    </noscript>
  );
}
