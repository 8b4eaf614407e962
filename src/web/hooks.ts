// Loading a page's data: the result, the error, and a way to load again.
import { useCallback, useEffect, useState } from "preact/hooks";
import { api } from "./api";

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

/**
 * A profile photo fetched with the access token and shown from memory: the server then
 * knows who looked (the audit trail names the reader, not "anonim"), and a student whose
 * processing is restricted still sees their own. Undefined while loading or without a
 * photo; null when it could not be loaded.
 */
export function usePhotoUrl(path: string | null): string | null | undefined {
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    if (!path) {
      setUrl(undefined);
      return;
    }
    let current = true;
    let objectUrl: string | null = null;
    api.file(path).then(
      (blob) => {
        if (!current) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      },
      () => current && setUrl(null),
    );
    return () => {
      current = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path]);
  return url;
}
