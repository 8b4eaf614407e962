// Loading a page's data: the result, the error, and a way to load again.
import { useCallback, useEffect, useState } from "preact/hooks";

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when the component mounts and whenever `keys` change; the latest call wins. */
export function useResource<T>(load: () => Promise<T>, keys: readonly unknown[] = []): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ data: previous.data, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
    // `keys` says when to load again; `load` itself is a new function on every render.
  }, [...keys, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
