import { useEffect, useRef, useState, type MouseEvent } from "react";

/**
 * Rows the organiser can add and remove (people, questions). The buttons are real submit
 * buttons, so without JavaScript the server answers with a row more or less; with it, the
 * change happens here and nothing is sent until Next.
 *
 * `key` is the row's index when the page was rendered, so errors the server reported for
 * that index stay with their row after others are removed.
 */
export function useEditableRows<T>(initial: T[], blank: T, max: number, firstFieldId: (index: number) => string, addButtonId: string) {
  const nextKey = useRef(initial.length);
  const [rows, setRows] = useState(() => initial.map((value, index) => ({ key: index, value })));
  const focusAfterRender = useRef<string | null>(null);

  useEffect(() => {
    if (!focusAfterRender.current) return;
    document.getElementById(focusAfterRender.current)?.focus();
    focusAfterRender.current = null;
  }, [rows]);

  const add = (event: MouseEvent) => {
    event.preventDefault();
    if (rows.length >= max) return;
    focusAfterRender.current = firstFieldId(rows.length);
    setRows([...rows, { key: nextKey.current++, value: blank }]);
  };

  const remove = (index: number) => (event: MouseEvent) => {
    event.preventDefault();
    focusAfterRender.current = rows.length > 1 ? firstFieldId(Math.max(0, index - 1)) : addButtonId;
    setRows(rows.length > 1 ? rows.filter((_, i) => i !== index) : [{ key: nextKey.current++, value: blank }]);
  };

  return { rows, add, remove, canAdd: rows.length < max };
}
