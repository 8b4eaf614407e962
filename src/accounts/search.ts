import { and, asc, eq, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { DatabaseClient } from "../db";
import { dosen, mahasiswa, roles, users, type Role } from "../db/schema";
import { adultAge, isMinor } from "../profile-fields";

/** The states the console's account list filters by. */
export const accountStates = ["aktif", "belum-aktif", "dinonaktifkan", "di-bawah-18"] as const;
export type AccountState = (typeof accountStates)[number];

export interface AccountFilter {
  /** Part of the username, NIM, NIP or name, in any case. */
  q?: string;
  role?: Role;
  state?: AccountState;
  page: number;
  perPage: number;
}

/** One account as the console lists it (never the password). */
export interface AccountListItem {
  id: number;
  username: string;
  role: Role;
  activated: boolean;
  /** Deactivated (decisions §14): no login, no activation, until an admin activates it. */
  disabled: boolean;
  nim: string | null;
  nip: string | null;
  nama: string | null;
  created_at: string;
  under_18: boolean;
  /** The account still signs in with a one-time password an admin set. */
  password_sementara: boolean;
}

export interface AccountPage {
  data: AccountListItem[];
  total: number;
  page: number;
  total_pages: number;
}

/** The student's or the lecturer's name. */
const accountName = sql<string | null>`coalesce(${mahasiswa.nama}, ${dosen.nama})`;

/** An account's columns as the lists show it, with its student's or lecturer's profile. */
const selectAccounts = (db: DatabaseClient) =>
  db
    .select({
      id: users.id,
      username: users.username,
      role: users.role,
      activated: users.isActivated,
      disabledAt: users.disabledAt,
      nim: mahasiswa.nim,
      nip: dosen.nip,
      nama: accountName,
      created_at: users.createdAt,
      usia: mahasiswa.usia,
      password_sementara: users.mustChangePassword,
    })
    .from(users)
    .leftJoin(mahasiswa, eq(mahasiswa.userId, users.id))
    .leftJoin(dosen, eq(dosen.userId, users.id));

const listItem = ({ usia, disabledAt, ...account }: ReturnType<ReturnType<typeof selectAccounts>["all"]>[number]): AccountListItem => ({
  ...account,
  disabled: disabledAt !== null,
  under_18: isMinor(usia),
});

/** Every account (of one role), by id: `skrining accounts list`. */
export function allAccounts(db: DatabaseClient, role?: Role): AccountListItem[] {
  return selectAccounts(db)
    .where(role ? eq(users.role, role) : undefined)
    .orderBy(asc(users.id))
    .all()
    .map(listItem);
}

/** The role and state of a query string, or undefined for anything else (every account). */
export const readRole = (value: string | undefined): Role | undefined => roles.find((role) => role === value?.trim());
export const readAccountState = (value: string | undefined): AccountState | undefined => accountStates.find((state) => state === value?.trim());

/**
 * The console's account list: filtered in SQL by role, state and a search text, ordered by
 * username, one page at a time (a faculty has thousands of accounts).
 */
export function searchAccounts(db: DatabaseClient, filter: AccountFilter): AccountPage {
  const conditions: SQL[] = [];
  if (filter.role) conditions.push(eq(users.role, filter.role));
  // Disabled (decisions §14) is a state of its own, whatever the activation says.
  if (filter.state === "aktif") conditions.push(eq(users.isActivated, true), isNull(users.disabledAt));
  if (filter.state === "belum-aktif") conditions.push(eq(users.isActivated, false), isNull(users.disabledAt));
  if (filter.state === "dinonaktifkan") conditions.push(isNotNull(users.disabledAt));
  if (filter.state === "di-bawah-18") conditions.push(lt(mahasiswa.usia, adultAge));
  const q = filter.q?.trim().toLowerCase();
  if (q) {
    const contains = (column: SQL | typeof users.username) => sql`instr(lower(coalesce(${column}, '')), ${q}) > 0`;
    conditions.push(or(contains(users.username), contains(sql`${mahasiswa.nim}`), contains(sql`${dosen.nip}`), contains(accountName))!);
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const total = db
    .select({ count: sql<number>`count(*)` })
    .from(users)
    .leftJoin(mahasiswa, eq(mahasiswa.userId, users.id))
    .leftJoin(dosen, eq(dosen.userId, users.id))
    .where(where)
    .get()!.count;
  const rows = selectAccounts(db)
    .where(where)
    .orderBy(asc(users.username))
    .limit(filter.perPage)
    .offset((filter.page - 1) * filter.perPage)
    .all();
  return {
    data: rows.map(listItem),
    total,
    page: filter.page,
    total_pages: Math.ceil(total / filter.perPage),
  };
}
