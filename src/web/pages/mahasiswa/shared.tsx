// What several student pages share: drafts kept in the browser, the outcome of an action,
// the latest result, and dates with their weekday.
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, keptStorage } from "../../api";
import { ErrorNotice, Notice } from "../../components/ui";
import type { Hasil, User } from "../../types";

/**
 * A draft's place in the browser's storage (the tab's, unless the student asked to be
 * remembered: api.ts keptStorage): per kind and per user, so that two students on one PC
 * never see each other's.
 */
export const draftKey = (kind: "kuesioner" | "jurnal", user: Pick<User, "Id_User">) => `skrining.draft.${kind}.${user.Id_User}`;

export function readDraft(key: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(keptStorage().getItem(key) ?? "null");
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function writeDraft(key: string, value: unknown): void {
  try {
    keptStorage().setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused: the form itself still holds the text.
  }
}

export function removeDraft(key: string): void {
  try {
    keptStorage().removeItem(key);
  } catch {
    // Nothing stored.
  }
}

/** The student's NIM as a path segment. */
export const nimPath = (user: User) => encodeURIComponent(user.NIM ?? "");

/** The latest screening, or null when the student has none yet (404 `Belum ada data skrining.`). */
export async function latestResult(user: User): Promise<Hasil | null> {
  try {
    return await api.get<Hasil>(`/api/mahasiswa/hasil/${nimPath(user)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.message === "Belum ada data skrining.") return null;
    throw error;
  }
}

/** Characters as the server counts them (code points, not UTF-16 units). */
export const characters = (text: string) => [...text].length;

/** Moves the focus once the next render has put the element on the page. */
export function focusSoon(id: string): void {
  setTimeout(() => document.getElementById(id)?.focus(), 0);
}

export type Outcome = { kind: "success"; text: string } | { kind: "error"; error: unknown } | null;

/**
 * One action at a time: busy while it runs, then its success text or its error. `work`
 * answers the text to show, or null to show nothing.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  async function run(work: () => Promise<string | null>): Promise<boolean> {
    setBusy(true);
    setOutcome(null);
    try {
      const text = await work();
      if (text) setOutcome({ kind: "success", text });
      return true;
    } catch (error) {
      setOutcome({ kind: "error", error });
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, outcome, setOutcome, run };
}

/**
 * What an action came to, announced and focused: the button that started it was disabled
 * while it ran, so the focus goes where the answer is (unless `focus` is false: the
 * control that started it is still there).
 */
export function OutcomeNotice(props: { outcome: Outcome; focus?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (props.outcome && props.focus !== false) box.current?.focus();
  }, [props.outcome]);
  if (!props.outcome) return null;
  return (
    <div class="outcome" ref={box} tabIndex={-1}>
      {props.outcome.kind === "success" ? (
        <Notice kind="success">
          <p>{props.outcome.text}</p>
        </Notice>
      ) : (
        <ErrorNotice error={props.outcome.error} />
      )}
    </div>
  );
}
