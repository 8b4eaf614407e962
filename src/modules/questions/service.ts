import { join } from "node:path";
import { replaceableFileNames } from "../../config";
import { ReplaceableFile } from "../../konten/replaceable-file";
import type { Logger } from "../../logger";
import { defaultQuestions, validateQuestions, type Question } from "../../skrining/questions";

/**
 * The item texts the clients show: the project's wording, or an admin's replacement
 * (`skrining questions import`) kept as `questions.json` in the data folder.
 */
export class QuestionsService {
  private readonly file: ReplaceableFile<Question[]>;

  constructor(dataDir: string, logger: Logger) {
    this.file = new ReplaceableFile(join(dataDir, replaceableFileNames.questions), defaultQuestions, validateQuestions, logger);
  }

  list(): Question[] {
    return this.file.current();
  }

  replace(value: unknown): { value?: Question[]; errors: string[] } {
    return this.file.replace(value);
  }
}
