// Moving between pages without reloading: the History API, with one listener list.
import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();
addEventListener("popstate", () => {
  for (const listener of listeners) listener();
});

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  for (const listener of listeners) listener();
}

/** The current path and query, updated on every navigation. */
export function useLocation(): { pathname: string; search: URLSearchParams } {
  const read = () => ({ pathname: location.pathname, search: new URLSearchParams(location.search) });
  const [current, setCurrent] = useState(read);
  useEffect(() => {
    const update = () => setCurrent(read());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return current;
}

/** A click on an in-app link navigates without a reload; modified clicks open tabs as usual. */
export function followLink(event: MouseEvent): void {
  const anchor = (event.target as Element | null)?.closest?.("a");
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const href = anchor.getAttribute("href");
  if (!href || !href.startsWith("/") || href.startsWith("//") || anchor.target || anchor.hasAttribute("download") || href.startsWith("/api/")) return;
  event.preventDefault();
  navigate(href);
}
