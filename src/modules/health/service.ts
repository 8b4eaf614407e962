import { sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { DatabaseClient } from "../../db";
import { users } from "../../db/schema";
import { StorageError, asStorageError, type StorageHealth } from "../../db/storage";
import type { Bcrypt } from "../../accounts/bcrypt";
import type { BuildInfo } from "../../build-info";
import type { Logger } from "../../logger";
import type { TlsHealth } from "../../tls/served";
import type { BackupHealth } from "../../backup/automatic";
import type { HealthyResponse, UnhealthyResponse } from "./model";
import { preparedOnFirstUse } from "../../db/prepared";

type Health = Static<typeof HealthyResponse> | Static<typeof UnhealthyResponse>;

/**
 * The state a monitor polls (and, with HTTPS, the certificate's). Cheap and without writes: one prepared read of one row, and
 * what the storage last reported (StorageHealth: a write refused for space, a read-only
 * disk, a lock, damage), which stays until a write succeeds again. The answer names no
 * file, cause or count: the route needs no token, and the log has the details.
 */
export class HealthService {
  private readonly probe;
  /** A failure of the probe that is not the storage's is logged when it starts, not on every poll. */
  private failing = false;
  /** Which program answers: after an upgrade a monitor sees the new version, commit and build date. */
  private readonly program: { version: string; commit: string; build_date: string | null };

  constructor(
    db: DatabaseClient,
    private readonly storage: StorageHealth,
    private readonly logger: Logger,
    build: BuildInfo,
    private readonly passwordHashing: () => Promise<Bcrypt>,
    /** The served certificate's state; null on plain HTTP (and in tests through app.handle()). */
    private readonly tls: () => TlsHealth | null = () => null,
    /** The automatic backups' state (the newest one's age); null without --backup-dir. */
    private readonly backups: () => BackupHealth | null = () => null,
  ) {
    this.probe = preparedOnFirstUse(() => db.select({ one: sql<number>`1` }).from(users).limit(1).prepare());
    this.program = { version: build.version, commit: build.commit, build_date: build.builtAt };
  }

  async check(): Promise<Health> {
    const tls = this.tls();
    const cadangan = this.backups();
    const state = await this.storageState();
    return { ...state, ...(tls ? { tls } : {}), ...(cadangan ? { cadangan } : {}) };
  }

  private async storageState(): Promise<Health> {
    // Chosen once per process; a serving process chose it before it listened.
    const { implementation: bcrypt } = await this.passwordHashing();
    try {
      this.probe.get();
    } catch (error) {
      const failure = asStorageError(error);
      if (failure instanceof StorageError) this.storage.failed(failure);
      else if (!this.failing) this.logger.error(`Pemeriksaan kesehatan gagal membaca basis data: ${error instanceof Error ? error.message : String(error)}`);
      this.failing = true;
      return { status: "error", ...this.program, database: "error", bcrypt };
    }
    this.failing = false;
    if (this.storage.problem !== null) return { status: "degraded", ...this.program, database: "error", bcrypt };
    return { status: "ok", ...this.program, database: "ok", bcrypt };
  }
}
