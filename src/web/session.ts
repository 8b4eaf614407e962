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

/** Ends the session on the server too; the tokens are forgotten even if the server cannot be reached. */
export async function signOut(): Promise<void> {
  try {
    await api.post("/api/auth/logout");
  } finally {
    forgetTokens();
    set({ status: "signed-out" });
  }
}
