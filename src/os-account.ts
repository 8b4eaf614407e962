import { readFileSync } from "node:fs";
import { userInfo } from "node:os";

/**
 * The name of the operating-system account this process runs as. On Linux it is read
 * from the password file by the process's uid, not from `$USER`, which a service manager
 * or `env -i` leaves unset and anyone can set (Bun's `os.userInfo()` reads that variable);
 * an account the file does not know (one from a directory service) is named `uid N`.
 * Windows has no uid: there the system's own answer, then `%USERNAME%`.
 */
export function operatingSystemAccount(passwordFile = "/etc/passwd"): string {
  const uid = process.getuid?.();
  if (uid === undefined) return windowsAccount();
  let entries = "";
  try {
    entries = readFileSync(passwordFile, "utf8");
  } catch {
    // No password file (a minimal container): the uid is still the truth.
  }
  return accountNameOf(uid, entries) ?? `uid ${uid}`;
}

/** The name of `uid` in the text of a password file (`name:x:uid:gid:...` per line), or null. */
export function accountNameOf(uid: number, passwordFileText: string): string | null {
  for (const line of passwordFileText.split("\n")) {
    const [name, , id] = line.split(":");
    if (name && id !== undefined && /^\d+$/.test(id) && Number(id) === uid) return name;
  }
  return null;
}

function windowsAccount(): string {
  try {
    const { username } = userInfo();
    if (username && username !== "unknown") return username;
  } catch {
    // fall through to the environment
  }
  return process.env.USERNAME || "unknown";
}
