import { invalid } from "../errors";

/**
 * The two implementations of bcrypt a process may hash and check passwords with. Both
 * write standard `$2b$` hashes and read `$2a$`, `$2b$` and `$2y$`, so a database written
 * with one works with the other (test/auth/bcrypt-implementations.test.ts).
 *
 * - `native`: the @node-rs/bcrypt addon, which hashes on a thread pool (every core).
 * - `javascript`: bcryptjs, pure JavaScript on the main thread, slower and one hash at a
 *   time (docs/operations.md has the figures). It is there so that the service still
 *   starts, creates its first admin and lets people sign in where the addon cannot be
 *   loaded: an executable for a platform whose addon was not embedded, or a runtime that
 *   cannot open the embedded one (Wine; see docs/operations.md, "Windows").
 *
 * The WebAssembly build of the addon (@node-rs/bcrypt-wasm32-wasi) is no fallback here: it
 * needs `node:wasi`'s `initialize()`, which Bun does not have, and worker files beside it.
 */
export type BcryptImplementation = "native" | "javascript";

export interface Bcrypt {
  implementation: BcryptImplementation;
  hash(password: string, cost: number): Promise<string>;
  /** Rejects for a hash it cannot read (a damaged or unknown one). */
  verify(password: string, hash: string): Promise<boolean>;
  /** Why the native addon is not used, when it is not. */
  fallbackReason?: string;
}

/** For tests and diagnosis only: `javascript` makes the process use bcryptjs even where the addon loads. */
export const bcryptSettingName = "SKRINING_BCRYPT";

type NativeAddon = Pick<typeof import("@node-rs/bcrypt"), "hash" | "verify">;

export function nativeBcrypt(addon: NativeAddon): Bcrypt {
  return { implementation: "native", hash: (password, cost) => addon.hash(password, cost), verify: (password, hash) => addon.verify(password, hash) };
}

export async function javascriptBcrypt(fallbackReason?: string): Promise<Bcrypt> {
  // Loaded only when chosen: a process with the addon never parses it.
  const bcryptjs = await import("bcryptjs");
  return {
    implementation: "javascript",
    hash: (password, cost) => bcryptjs.hash(password, cost),
    verify: (password, hash) => bcryptjs.compare(password, hash),
    ...(fallbackReason === undefined ? {} : { fallbackReason }),
  };
}

/**
 * The loader's own message (its first sentence: the rest is advice for an npm install,
 * which does not apply to an executable) and the innermost cause it nests, which is the
 * operating system's reason (for example "LoadLibrary failed: Module not found.").
 */
function reasonOf(error: unknown): string {
  const firstSentence = (value: unknown) => (value instanceof Error ? value.message : String(value)).split("\n")[0]!.split(/(?<=\.) /)[0]!.trim();
  let innermost = error;
  // The loader ends its chain with `cause: null`.
  for (let depth = 0; depth < 10 && innermost instanceof Error && innermost.cause != null; depth++) innermost = innermost.cause;
  const [outer, inner] = [firstSentence(error), firstSentence(innermost)];
  return inner && inner !== outer ? `${outer} ← ${inner}` : outer || "sebab tidak diketahui";
}

/**
 * The implementation for a process: the addon when it loads, bcryptjs otherwise (or when
 * `setting` is `javascript`). `setting` is the value of SKRINING_BCRYPT; an unknown one
 * is refused rather than guessed.
 */
export async function chooseBcrypt(setting: string | undefined, loadNative: () => Promise<NativeAddon> = () => import("@node-rs/bcrypt")): Promise<Bcrypt> {
  const wanted = setting?.trim() || "auto";
  if (wanted === "javascript") return javascriptBcrypt(`${bcryptSettingName}=javascript`);
  if (wanted !== "auto") throw invalid(`${bcryptSettingName} harus "auto" atau "javascript" (diberikan: ${setting}).`);
  try {
    return nativeBcrypt(await loadNative());
  } catch (error) {
    return javascriptBcrypt(`modul bcrypt untuk ${process.platform}-${process.arch} tidak dapat dimuat: ${reasonOf(error)}`);
  }
}

/** The line the service prints at start: which implementation checks passwords, and when it is the slower one, why. */
export function bcryptStartLine(bcrypt: Bcrypt): string {
  if (bcrypt.implementation === "native") return "Password diperiksa dengan bcrypt native (@node-rs/bcrypt).";
  return (
    `Password diperiksa dengan bcrypt JavaScript (bcryptjs), lebih lambat dari modul native (${bcrypt.fallbackReason ?? "dipilih"}). ` +
    "Hash tetap sama ($2b$); login dan impor akun memakan waktu lebih lama (docs/operations.md, bagian Windows)."
  );
}
