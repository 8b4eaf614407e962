// Who is signed in, shared by every page: set by signing in, by a reload that still has a
// session, and cleared by signing out or by the server ending the session.
import { useEffect, useState } from "preact/hooks";
import { keepHelpContact } from "./help-contact";
import { ApiError, api, forgetTokens, keptStorage, hasStoredSession, onSignedOut, refreshAccessToken, rememberTokens, request } from "./api";
import type { PrivacyNotice, User } from "./types";

/**
 * What a signed-in student still has to do before any page: acknowledge the privacy
 * notice's version in force, or wait until it can be loaded. Null when nothing is pending.
 */
export type PrivacyGate = { notice: PrivacyNotice; error?: unknown } | { notice?: undefined; error: unknown } | null;

/**
 * A one-time password an admin set must be replaced before any page (the login answer's
 * `must_change_password`): the password typed at sign-in is kept for that form, so that it
 * is not asked twice; after a reload it is asked again.
 */
export type PasswordGate = { temporary: string | null } | null;

type State =
  | { status: "checking" }
  | { status: "offline" }
  | { status: "signed-out"; notice?: string }
  | { status: "signed-in"; user: User; privacy: PrivacyGate; passwordChange?: PasswordGate };

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

/**
 * On a reload: a stored refresh token gives an access token and the user again. Without a
 * connection the session is kept and the page says it is offline until the connection is
 * back (then it tries again by itself).
 */
export async function resumeSession(): Promise<void> {
  if (state.status !== "checking") return;
  try {
    if (!(await refreshAccessToken())) return set({ status: "signed-out" });
    const [user] = await Promise.all([api.get<User>("/api/auth/me"), keepHelpContact()]);
    if (user.must_change_password) return set({ status: "signed-in", user, privacy: null, passwordChange: { temporary: null } });
    set({ status: "signed-in", user, privacy: await privacyGateOf(user) });
  } catch (error) {
    // A server that answers with an error keeps the session for the next sign-in.
    set(error instanceof ApiError && error.status === 0 ? { status: "offline" } : { status: "signed-out" });
  }
}

/** Tries the stored session again after the page was offline. */
export function retrySession(): void {
  if (state.status !== "offline") return;
  set({ status: "checking" });
  void resumeSession();
}
addEventListener("online", retrySession);

/**
 * Signs in. `acknowledging` is the version of the privacy notice the student has just
 * accepted (the activation page): it is recorded before any page shows, so that the
 * notice is not asked for again; if that fails, the notice is asked for as on any sign-in.
 * `remember`: the person ticked "Ingat saya di perangkat ini" (api.ts keptStorage).
 */
export async function signIn(username: string, password: string, acknowledging?: string, remember = false): Promise<User> {
  const answer = await request<{ access_token: string; refresh_token: string; user: User }>("POST", "/api/auth/login", {
    json: { username, password },
    authenticated: false,
  });
  rememberTokens(answer.access_token, answer.refresh_token, remember);
  // The offline shell's help numbers, fetched beside what the first page waits for anyway.
  const helpKept = keepHelpContact();
  // The notice waits until the one-time password is replaced: the sign-in after that asks for it.
  if (answer.user.must_change_password) {
    await helpKept;
    set({ status: "signed-in", user: answer.user, privacy: null, passwordChange: { temporary: password } });
    return answer.user;
  }
  let privacy: PrivacyGate = null;
  if (answer.user.role === "mahasiswa") {
    const recorded = acknowledging !== undefined && (await acknowledgeNotice(acknowledging).then(() => true, () => false));
    if (!recorded) privacy = await privacyGateOf(answer.user);
  }
  await helpKept;
  set({ status: "signed-in", user: answer.user, privacy });
  return answer.user;
}

export const privacyNoticePath = "/api/privasi/pemberitahuan";

const acknowledgeNotice = (version: string) => api.post(`${privacyNoticePath}/setuju`, { version });

/** Whether a student must still acknowledge the notice in force; a notice that cannot be loaded keeps the gate closed. */
async function privacyGateOf(user: User): Promise<PrivacyGate> {
  if (user.role !== "mahasiswa") return null;
  try {
    const notice = await api.get<PrivacyNotice>(privacyNoticePath);
    return notice.acknowledged ? null : { notice };
  } catch (error) {
    // An ended session has signed the student out already (api.ts): nothing is pending then.
    if (error instanceof ApiError && error.status === 401) throw error;
    return { error };
  }
}

/**
 * Replaces the one-time password with the owner's own. The change ends every session of
 * the account (decisions §9), so the owner is signed in again with the new password, and
 * the pages (or the privacy notice) follow.
 */
export async function replaceOneTimePassword(temporary: string, newPassword: string): Promise<void> {
  if (state.status !== "signed-in") return;
  const { username } = state.user;
  await request("POST", "/api/auth/password", { json: { old_password: temporary, new_password: newPassword }, checksPassword: true });
  // The new session is kept where the person chose at sign-in ("Ingat saya di perangkat ini").
  const remember = keptStorage() === localStorage;
  forgetTokens();
  await signIn(username, newPassword, undefined, remember);
}

/** Loads the notice again (after an error, or when a newer version replaced the one shown). */
export async function recheckPrivacy(): Promise<void> {
  if (state.status !== "signed-in") return;
  const { user } = state;
  const privacy = await privacyGateOf(user).catch(() => undefined);
  if (privacy !== undefined && state.status === "signed-in" && state.user === user) set({ status: "signed-in", user, privacy });
}

/**
 * The student accepts the notice shown. A newer version published meanwhile (409) is
 * loaded and shown instead, with the server's text; any other failure is the caller's to show.
 */
export async function acceptPrivacyNotice(version: string): Promise<void> {
  try {
    await acknowledgeNotice(version);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && state.status === "signed-in") {
      const privacy = await privacyGateOf(state.user);
      set({ status: "signed-in", user: state.user, privacy: privacy?.notice ? { notice: privacy.notice, error } : privacy });
      return;
    }
    throw error;
  }
  if (state.status === "signed-in") set({ status: "signed-in", user: state.user, privacy: null });
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
