import { HttpError } from "../../http/errors";

/**
 * Counts failed logins and activations per username and per client address in a sliding
 * window. A campus lab shares one address, hence the higher address limit.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly limits: { perUsername: number; perAddress: number; windowSeconds: number }) {}

  /** Throws 429 while either key is over its limit — even before the password is checked. */
  assertAllowed(username: string, address: string): void {
    const now = Date.now();
    const waits = [
      this.waitSeconds(`user:${username}`, this.limits.perUsername, now),
      this.waitSeconds(`address:${address}`, this.limits.perAddress, now),
    ];
    const wait = Math.max(...waits);
    if (wait > 0) {
      throw new HttpError(
        429,
        { error: `Terlalu banyak percobaan. Coba lagi dalam ${Math.ceil(wait / 60)} menit.` },
        { "retry-after": String(wait) },
      );
    }
  }

  recordFailure(username: string, address: string): void {
    const now = Date.now();
    if (this.failures.size > 50_000) this.sweep(now);
    for (const key of [`user:${username}`, `address:${address}`]) {
      const recent = this.recent(key, now);
      recent.push(now);
      this.failures.set(key, recent);
    }
  }

  clearUsername(username: string): void {
    this.failures.delete(`user:${username}`);
  }

  /** Forgets keys whose failures have all left the window, so memory stays bounded. */
  private sweep(now: number): void {
    for (const key of [...this.failures.keys()]) this.recent(key, now);
  }

  private recent(key: string, now: number): number[] {
    const windowStart = now - this.limits.windowSeconds * 1000;
    const kept = (this.failures.get(key) ?? []).filter((time) => time > windowStart);
    if (kept.length === 0) this.failures.delete(key);
    return kept;
  }

  private waitSeconds(key: string, limit: number, now: number): number {
    const recent = this.recent(key, now);
    if (recent.length < limit) return 0;
    const oldestCounted = recent[recent.length - limit]!;
    return Math.max(1, Math.ceil((oldestCounted + this.limits.windowSeconds * 1000 - now) / 1000));
  }
}
