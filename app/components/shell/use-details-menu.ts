import { useEffect, useRef } from "react";

/**
 * Enhances a <details> menu (which already opens and closes without JavaScript):
 * Escape and a click outside close it (spec §2.2).
 */
export function useDetailsMenu(onClose?: () => void) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = () => {
      const details = ref.current;
      if (!details?.open) return;
      if (onClose) onClose();
      else details.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && ref.current?.open) {
        close();
        ref.current?.querySelector("summary")?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) close();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [onClose]);
  return ref;
}
