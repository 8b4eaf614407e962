// Whether skrining can be reached, for the offline banner: the browser's own word (its
// online and offline events) and the fate of the last request (no answer at all, or one).
import { useEffect, useState } from "preact/hooks";

let browserOnline = navigator.onLine;
let serverAnswered = true;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

addEventListener("offline", () => {
  browserOnline = false;
  notify();
});
addEventListener("online", () => {
  // Back online: the next request tells whether the server answers too.
  browserOnline = true;
  serverAnswered = true;
  notify();
});

/** Called by the API client after each request: whether any answer came. */
export function noteAnswer(answered: boolean): void {
  if (serverAnswered === answered) return;
  serverAnswered = answered;
  notify();
}

export const isOffline = () => !browserOnline || !serverAnswered;

/** Whether the page is offline now, followed as it changes. */
export function useOffline(): boolean {
  const [offline, setOffline] = useState(isOffline);
  useEffect(() => {
    const update = () => setOffline(isOffline());
    listeners.add(update);
    update();
    return () => void listeners.delete(update);
  }, []);
  return offline;
}
