import { join } from "node:path";
import { replaceableFileNames } from "../../config";
import { defaultHelpContact, validateHelpContact, type HelpContact } from "../../konten/help";
import { defaultPrivacyNotice, validatePrivacyNotice, type PrivacyNotice } from "../../konten/privacy-notice";
import { ReplaceableFile } from "../../konten/replaceable-file";
import type { Logger } from "../../logger";

/** The texts the faculty may replace besides the questions: where to get help, the privacy notice. */
export class KontenService {
  readonly help: ReplaceableFile<HelpContact>;
  readonly privacyNotice: ReplaceableFile<PrivacyNotice>;

  constructor(dataDir: string, logger: Logger) {
    this.help = new ReplaceableFile(join(dataDir, replaceableFileNames.help), defaultHelpContact, validateHelpContact, logger);
    this.privacyNotice = new ReplaceableFile(join(dataDir, replaceableFileNames.privacyNotice), defaultPrivacyNotice, validatePrivacyNotice, logger);
  }
}
