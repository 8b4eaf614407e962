import { join } from "node:path";
import { replaceableFileNames } from "../../config";
import { defaultHelpContact, validateHelpContact, type HelpContact } from "../../content/help";
import { ReplaceableFile } from "../../content/replaceable-file";
import type { Logger } from "../../logger";

/** The texts the faculty may replace besides the questions: where to get help. */
export class ContentService {
  readonly help: ReplaceableFile<HelpContact>;

  constructor(dataDir: string, logger: Logger) {
    this.help = new ReplaceableFile(join(dataDir, replaceableFileNames.help), defaultHelpContact, validateHelpContact, logger);
  }
}
