import { renameSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { Logger } from "../logger";

/**
 * A validator of a replacement: the value to keep, or every problem found (all at once, so
 * an admin fixes the file in one pass). A replacement is also checked against the text in
 * force (`current`); a file read back is not.
 */
export type Validator<T> = (value: unknown, current?: T) => { value?: T; errors: string[] };

/**
 * A data file of the data folder that an admin may replace from the CLI (the question
 * texts, the help contact, the privacy notice). The project's own text applies until a
 * replacement is imported; the file's stamp is checked on each read, so an import made
 * while the server runs is picked up without a restart; a file later broken by hand makes
 * the project's text apply again, and the reason is logged.
 */
export class ReplaceableFile<T> {
  private cached: { stamp: string; value: T } | null = null;

  constructor(
    private readonly path: string,
    private readonly projectDefault: T,
    private readonly validate: Validator<T>,
    private readonly logger: Logger,
  ) {}

  current(): T {
    const stamp = this.stamp();
    if (stamp === null) return this.projectDefault;
    if (this.cached?.stamp === stamp) return this.cached.value;
    let value = this.projectDefault;
    try {
      const checked = this.validate(JSON.parse(readFileSync(this.path, "utf8")));
      if (checked.value !== undefined) value = checked.value;
      else this.logger.error(`${this.path} tidak valid, memakai teks bawaan: ${checked.errors[0]}`);
    } catch (error) {
      // A replacement edited by hand into something unreadable must not take a route down.
      this.logger.error(`${this.path} tidak dapat dibaca, memakai teks bawaan: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.cached = { stamp, value };
    return value;
  }

  /** Validates and stores a replacement; the rename makes the switch atomic for readers. */
  replace(value: unknown): { value?: T; errors: string[] } {
    const checked = this.validate(value, this.current());
    if (checked.value === undefined) return checked;
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(checked.value, null, 2) + "\n", { mode: 0o600 });
    renameSync(temporary, this.path);
    return checked;
  }

  private stamp(): string | null {
    // No exception for the usual case of no replacement: building one costs more than the read.
    const stats = statSync(this.path, { throwIfNoEntry: false });
    return stats ? `${stats.mtimeMs}:${stats.size}:${stats.ino}` : null;
  }
}
