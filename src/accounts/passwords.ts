import { pbkdf2, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import type { DatabaseClient } from "../db";
import type { WriteQueue } from "../db/write-queue";
import { appendAuditRows, type AuditEntry } from "../audit/trail";
import { users } from "../db/schema";
import { endAllSessions } from "../auth/sessions";
import { chooseBcrypt, bcryptSettingName, type Bcrypt } from "./bcrypt";

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = promisify(scrypt) as (password: string, salt: string, length: number, options: object) => Promise<Buffer>;

/** The newest Werkzeug default, used when an imported pbkdf2 hash names no iteration count. */
const werkzeugDefaultIterations = 1_000_000;

interface PasswordCheck {
  ok: boolean;
  /** True when the stored hash is in a legacy format and should be replaced by bcrypt. */
  needsRehash: boolean;
}

/** New hashes are standard `$2b$`, whichever implementation makes them (see bcrypt.ts). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  return (await passwordHashing()).hash(password, cost);
}

let chosenBcrypt: Promise<Bcrypt> | undefined;

/**
 * The process's bcrypt, chosen on first use (so that commands which never touch a password
 * load neither implementation) and kept: the addon when it loads, bcryptjs otherwise.
 */
export function passwordHashing(): Promise<Bcrypt> {
  chosenBcrypt ??= chooseBcrypt(process.env[bcryptSettingName]);
  return chosenBcrypt;
}

export async function verifyPassword(password: string, stored: string): Promise<PasswordCheck> {
  if (stored.startsWith("$2")) return { ok: await verifyBcrypt(password, stored), needsRehash: false };
  if (stored.startsWith("pbkdf2:") || stored.startsWith("scrypt:")) {
    return { ok: await verifyWerkzeug(password, stored), needsRehash: true };
  }
  return { ok: false, needsRehash: false };
}

/** A damaged stored hash is a wrong password, not an error of the request. */
async function verifyBcrypt(password: string, stored: string): Promise<boolean> {
  const { verify } = await passwordHashing();
  try {
    return await verify(password, stored);
  } catch {
    return false;
  }
}

/** Werkzeug's `method$salt$hexdigest` format, as the earlier Flask deployment stored it. */
async function verifyWerkzeug(password: string, stored: string): Promise<boolean> {
  const [method, salt, expectedHex] = stored.split("$");
  if (!method || salt === undefined || !expectedHex || !/^[0-9a-f]+$/i.test(expectedHex)) return false;
  const expected = Buffer.from(expectedHex, "hex");
  const [kind, ...parameters] = method.split(":");
  let actual: Buffer;
  try {
    if (kind === "pbkdf2") {
      const digest = parameters[0] ?? "sha256";
      const iterations = parameters[1] === undefined ? werkzeugDefaultIterations : Number(parameters[1]);
      if (!["sha256", "sha512", "sha1"].includes(digest) || !Number.isInteger(iterations) || iterations < 1) return false;
      actual = await pbkdf2Async(password, salt, iterations, expected.length, digest);
    } else if (kind === "scrypt") {
      const [n, r, p] = (parameters.length === 3 ? parameters : ["32768", "8", "1"]).map(Number) as [number, number, number];
      if (![n, r, p].every((value) => Number.isInteger(value) && value > 0)) return false;
      actual = await scryptAsync(password, salt, expected.length, { N: n, r, p, maxmem: 132 * n * r * p + 1024 });
    } else {
      return false;
    }
  } catch {
    return false;
  }
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Stores a new password and ends every session of the user, in one write (decisions §9)
 * that also holds the change's audit row. `oneTimeUntil`: an admin's reset, which the
 * owner must replace at the next sign-in and which opens nothing after that moment
 * (decisions §21); any other new password lifts both.
 */
export async function replacePassword(db: DatabaseClient, writes: WriteQueue, userId: number, password: string, cost: number, audit: AuditEntry, oneTimeUntil: string | null = null): Promise<void> {
  const passwordHash = await hashPassword(password, cost);
  await writes.run(() => {
    db.update(users).set({ passwordHash, mustChangePassword: oneTimeUntil !== null, passwordExpiresAt: oneTimeUntil }).where(eq(users.id, userId)).run();
    endAllSessions(db, userId);
    appendAuditRows(db.$client, [audit]);
  });
}
