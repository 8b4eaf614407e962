// Who is signed in, shared by every page: set by signing in, by a reload that still has a
// session, and cleared by signing out or by the server ending the session.
import { useEffect, useState } from "preact/hooks";
import { api, forgetTokens, hasStoredSession, onSignedOut, refreshAccessToken, rememberTokens, request } from "./api";
import type { User } from "./types";

type State = { status: "checking" } | { status: "signed-out"; notice?: string } | { status: "signed-in"; user: User };

let state: State = { status: hasStoredSession() ? "checking" : "signed-out" };
const listeners = new Set<(state: State) => void>();

function set(next: State): void {
  state = next;
  for (const listener of listeners) listener(state);
}

onSignedOut(() => set({ status: "signed-out" }));

/** The session as state of a component. */
export function useSession(): State {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    listeners.add(setCurrent);
    return () => void listeners.delete(setCurrent);
  }, []);
  return current;
}

/** On a reload: a stored refresh token gives an access token and the user again. */
export async function resumeSession(): Promise<void> {
  if (state.status !== "checking") return;
  try {
    if (!(await refreshAccessToken())) return set({ status: "signed-out" });
    set({ status: "signed-in", user: await api.get<User>("/api/auth/me") });
  } catch {
    // The server cannot be reached: the session is kept for the next try.
    set({ status: "signed-out" });
  }
}

export async function signIn(username: string, password: string): Promise<User> {
  const answer = await request<{ access_token: string; refresh_token: string; user: User }>("POST", "/api/auth/login", {
    json: { username, password },
    authenticated: false,
  });
  rememberTokens(answer.access_token, answer.refresh_token);
  set({ status: "signed-in", user: answer.user });
  return answer.user;
}

/**
 * What this browser keeps for the person signed in (unsent drafts, an admin's chosen
 * lecturer), all under `skrining.`: a lab PC is shared, so an explicit sign-out leaves
 * none of it behind. A session the server ended keeps it for the same person's next sign-in.
 */
function forgetKeptData(): void {
  for (const storage of [localStorage, sessionStorage]) {
    try {
      const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter((key) => key?.startsWith("skrining."));
      for (const key of keys) storage.removeItem(key!);
    } catch {
      // Storage the browser refuses holds nothing of ours.
    }
  }
}

/**
 * Ends the session on the server too; the tokens and whatever this browser kept are
 * forgotten even if the server cannot be reached. `notice` is shown on the sign-in page
 * (why the student has to sign in again).
 */
export async function signOut(notice?: string): Promise<void> {
  try {
    await api.post("/api/auth/logout");
  } finally {
    forgetTokens();
    forgetKeptData();
    set({ status: "signed-out", notice });
  }
}
