// What several student pages share: drafts kept in the browser, the latest result, and
// dates with their weekday (the outcome of an action: components/outcome.tsx).
import { api, ApiError, keptStorage } from "../../api";
import { pathOf } from "../../routes";
import { student } from "../../strings";
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

/** A student with no screening yet (Hasil, Riwayat): said so, with the way to the questionnaire. */
export function NotScreenedYet() {
  return (
    <>
      <p>{student.notScreened}</p>
      <p>
        <a class="button button-primary" href={pathOf("kuesioner")}>
          {student.toQuestionnaire}
        </a>
      </p>
    </>
  );
}
