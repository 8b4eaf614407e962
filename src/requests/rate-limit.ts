import { ServiceError } from "../errors";

/** The answer to a client over its rate (decisions §10): 429 with the seconds until it may try again. */
export const tooManyRequests = (seconds: number) =>
  new ServiceError("too_many", `Terlalu banyak permintaan. Coba lagi dalam ${seconds} detik.`, { retryAfterSeconds: seconds });

/**
 * A fair-use limit per key (an account, a client address): a token bucket that holds
 * `perMinute` tokens and refills at `perMinute` a minute, so a burst of that size passes
 * and a steady stream is held to the rate. Used for a student account's writes (decisions
 * §10), reads without a token per address (§16) and a student's data document.
 */
export class RateLimit<Key extends string | number> {
  private readonly buckets = new Map<Key, { tokens: number; at: number }>();
  private readonly refillPerMillisecond: number;

  constructor(private readonly perMinute: number) {
    this.refillPerMillisecond = perMinute / 60_000;
  }

  /** Takes one token for the key, or throws 429 with the seconds until one is back. */
  take(key: Key): void {
    const now = Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.refillPerMillisecond);
    bucket.at = now;
    if (bucket.tokens < 1) throw tooManyRequests(Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMillisecond / 1000)));
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.forgetFull(now);
  }

  /** A bucket that has refilled says nothing a new one would not: forgetting it keeps the map to recent callers. */
  private forgetFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.refillPerMillisecond >= this.perMinute) this.buckets.delete(key);
    }
  }
}
