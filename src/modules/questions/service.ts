import { renameSync, statSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../../logger";
import { defaultQuestions, validateQuestions, type Question } from "../../screening/questions";

/** Where an admin's replacement wording lives, beside the database in the data folder. */
const questionsFileName = "questions.json";

/**
 * The item texts the clients show. The shipped wording applies until an admin imports a
 * replacement; the file's modification time is checked on each read, so an import made
 * by the CLI while the server runs is picked up without a restart.
 */
export class QuestionsService {
  private readonly path: string;
  private cached: { stamp: string; questions: Question[] } | null = null;

  constructor(dataDir: string, private readonly logger: Logger) {
    this.path = join(dataDir, questionsFileName);
  }

  list(): Question[] {
    const stamp = this.stamp();
    if (stamp === null) return defaultQuestions;
    if (this.cached?.stamp === stamp) return this.cached.questions;
    let questions = defaultQuestions;
    try {
      const checked = validateQuestions(JSON.parse(readFileSync(this.path, "utf8")));
      if (checked.questions) questions = checked.questions;
      else this.logger.error(`${this.path} tidak valid, memakai teks bawaan: ${checked.errors[0]}`);
    } catch (error) {
      // A replacement edited by hand into something unreadable must not take the route down.
      this.logger.error(`${this.path} tidak dapat dibaca, memakai teks bawaan: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.cached = { stamp, questions };
    return questions;
  }

  /** Validates and stores a replacement; the rename makes the switch atomic for readers. */
  replace(value: unknown): { questions?: Question[]; errors: string[] } {
    const checked = validateQuestions(value);
    if (!checked.questions) return checked;
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(checked.questions, null, 2) + "\n", { mode: 0o600 });
    renameSync(temporary, this.path);
    return checked;
  }

  private stamp(): string | null {
    // No exception for the usual case of no replacement: building one costs more than the read.
    const stats = statSync(this.path, { throwIfNoEntry: false });
    return stats ? `${stats.mtimeMs}:${stats.size}:${stats.ino}` : null;
  }
}
