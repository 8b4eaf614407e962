import { join } from "node:path";
import { replaceableFileNames } from "../../config";
import { defaultHelpContact, validateHelpContact, type HelpContact } from "../../content/help";
import { defaultPrivacyNotice, validatePrivacyNotice, type PrivacyNotice } from "../../content/privacy-notice";
import { ReplaceableFile } from "../../content/replaceable-file";
import type { Logger } from "../../logger";

/** The texts the faculty may replace besides the questions: where to get help, the privacy notice. */
export class ContentService {
  readonly help: ReplaceableFile<HelpContact>;
  readonly privacyNotice: ReplaceableFile<PrivacyNotice>;

  constructor(dataDir: string, logger: Logger) {
    this.help = new ReplaceableFile(join(dataDir, replaceableFileNames.help), defaultHelpContact, validateHelpContact, logger);
    this.privacyNotice = new ReplaceableFile(join(dataDir, replaceableFileNames.privacyNotice), defaultPrivacyNotice, validatePrivacyNotice, logger);
  }
}
