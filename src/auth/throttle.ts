import { ServiceError } from "../errors";

interface ThrottleLimits {
  perUsername: number;
  perAddress: number;
  windowSeconds: number;
  /** How many usernames and addresses are remembered at most; the least recently counted are forgotten first. */
  maxKeys: number;
}

/** An attempt counted before its password is checked; settled once the outcome is known. */
export interface Attempt {
  /** The outcome was no failure (a success, or a refusal that is not a wrong guess): uncount it. */
  release(): void;
  /** A successful login: uncount it and forget the username's failures (decisions §6). */
  succeed(): void;
}

/**
 * Counts failed logins and activations per username and per client address in a sliding
 * window. An attempt is counted (reserved) before the password is checked, so that a
 * parallel burst is limited exactly like a sequential one (decisions §10); an outcome that
 * is not a failure gives its reservation back. A campus lab shares one address, hence
 * the higher address limit.
 */
export class LoginThrottle {
  // Per key the times of its counted attempts, oldest first. A Map iterates in insertion
  // order and a key is re-inserted whenever it is counted, so the first keys are the
  // least recently counted: those are forgotten when the map is full.
  private readonly attempts = new Map<string, number[]>();

  constructor(private readonly limits: ThrottleLimits) {}

  /** Counts an attempt for the username and the address, or throws 429 while either is at its limit. */
  reserve(username: string, address: string): Attempt {
    return this.count([
      [`user:${username}`, this.limits.perUsername],
      [`address:${address}`, this.limits.perAddress],
    ]);
  }

  /** Counts a failure against the address alone (a username too long to be anyone's, decisions §10). */
  reserveAddress(address: string): Attempt {
    return this.count([[`address:${address}`, this.limits.perAddress]]);
  }

  private count(keys: [string, number][]): Attempt {
    const now = Date.now();
    const wait = Math.max(...keys.map(([key, limit]) => this.waitSeconds(key, limit, now)));
    if (wait > 0) {
      throw new ServiceError("too_many", `Terlalu banyak percobaan. Coba lagi dalam ${Math.ceil(wait / 60)} menit.`, { retryAfterSeconds: wait });
    }
    for (const [key] of keys) this.add(key, now);
    const uncount = () => {
      for (const [key] of keys) this.remove(key, now);
    };
    return {
      release: uncount,
      succeed: () => {
        uncount();
        for (const [key] of keys) if (key.startsWith("user:")) this.attempts.delete(key);
      },
    };
  }

  private add(key: string, now: number): void {
    const times = this.recent(key, now);
    times.push(now);
    this.attempts.delete(key);
    if (this.attempts.size >= this.limits.maxKeys) this.makeRoom(now);
    this.attempts.set(key, times);
  }

  private remove(key: string, time: number): void {
    const times = this.attempts.get(key);
    if (!times) return;
    const index = times.lastIndexOf(time);
    if (index >= 0) times.splice(index, 1);
    if (times.length === 0) this.attempts.delete(key);
  }

  /** Forgets keys whose attempts have all left the window, then the least recently counted. */
  private makeRoom(now: number): void {
    for (const key of [...this.attempts.keys()]) this.recent(key, now);
    const excess = this.attempts.size - this.limits.maxKeys + 1;
    if (excess <= 0) return;
    let removed = 0;
    for (const key of this.attempts.keys()) {
      if (removed++ >= excess) break;
      this.attempts.delete(key);
    }
  }

  /** The key's attempts still inside the window (the stored array, pruned in place). */
  private recent(key: string, now: number): number[] {
    const times = this.attempts.get(key);
    if (!times) return [];
    const windowStart = now - this.limits.windowSeconds * 1000;
    let expired = 0;
    while (expired < times.length && times[expired]! <= windowStart) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length === 0) this.attempts.delete(key);
    return times;
  }

  private waitSeconds(key: string, limit: number, now: number): number {
    const times = this.recent(key, now);
    if (times.length < limit) return 0;
    const oldestCounted = times[times.length - limit]!;
    return Math.max(1, Math.ceil((oldestCounted + this.limits.windowSeconds * 1000 - now) / 1000));
  }
}
