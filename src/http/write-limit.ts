import { ServiceError } from "../errors";

/**
 * Fair use (decisions §10): the writes of one student account are limited by a token
 * bucket that holds `perMinute` tokens and refills at `perMinute` a minute, so a burst of
 * that size passes and a steady stream is held to the rate. Staff accounts are not limited.
 */
export class StudentWriteLimit {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();
  private readonly refillPerMillisecond: number;

  constructor(private readonly perMinute: number) {
    this.refillPerMillisecond = perMinute / 60_000;
  }

  /** Takes one token for the account, or throws 429 with the seconds until one is back. */
  take(userId: number): void {
    const now = Date.now();
    const bucket = this.buckets.get(userId) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.refillPerMillisecond);
    bucket.at = now;
    if (bucket.tokens < 1) {
      const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMillisecond / 1000));
      throw new ServiceError("too_many", `Terlalu banyak permintaan. Coba lagi dalam ${seconds} detik.`, { retryAfterSeconds: seconds });
    }
    bucket.tokens -= 1;
    this.buckets.set(userId, bucket);
    if (this.buckets.size > 10_000) this.forgetFull(now);
  }

  /** A bucket that has refilled says nothing a new one would not: forgetting it keeps the map to recent writers. */
  private forgetFull(now: number): void {
    for (const [userId, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.refillPerMillisecond >= this.perMinute) this.buckets.delete(userId);
    }
  }
}
