import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultQuestions } from "../../src/skrining/questions";
import { temporaryDir } from "../helpers";
import { constantModel } from "../models/support";

// The commands that work on an existing data folder, with arguments each would accept:
// the tables of the data-folder and the schema tests.

/** A file with `text` in a folder of its own (inputs the commands read before the data folder). */
export function inputFile(name: string, text: string): string {
  const path = join(temporaryDir("skrining-input-"), name);
  writeFileSync(path, text);
  return path;
}

export const modelFile = () => inputFile("model.json", JSON.stringify(constantModel("Tinggi", "Rendah")));

/** A command of these tables: its name, its arguments, and what it reads on standard input. */
export type CommandRow = [name: string, args: () => string[], stdin: string | undefined];

/**
 * Rows of three, also for a command that reads nothing: given a row shorter than the test
 * function's parameters, `test.each` passes a `done` callback in the missing place, and
 * the test then waits for a call that never comes (or passes it to the command as input).
 */
export const commandRows = (rows: readonly [string, () => string[], string?][]): CommandRow[] => rows.map(([name, args, stdin]) => [name, args, stdin]);

/** Every command that needs an existing data folder, with arguments it would otherwise accept. */
export const needsExistingFolder: CommandRow[] = commandRows([
  ["accounts list", () => ["accounts", "list"]],
  ["audit list", () => ["audit", "list"]],
  ["audit verify", () => ["audit", "verify"]],
  ["audit anchor", () => ["audit", "anchor"]],
  ["accounts passwd", () => ["accounts", "passwd", "admin"], "sandi-baru-123\n"],
  ["accounts activate", () => ["accounts", "activate", "mhs1"]],
  ["accounts deactivate", () => ["accounts", "deactivate", "mhs1"]],
  ["backup", () => ["backup", join(temporaryDir("skrining-backup-"), "cadangan.tar.gz")]],
  ["check", () => ["check"]],
  ["model add", () => ["model", "add", "--type", "stress", "--file", modelFile()]],
  ["model list", () => ["model", "list"]],
  ["model activate", () => ["model", "activate", "1"]],
  ["model deactivate", () => ["model", "deactivate", "1"]],
  ["model remove", () => ["model", "remove", "1"]],
  ["questions import", () => ["questions", "import", inputFile("questions.json", JSON.stringify(defaultQuestions))]],
  ["questions export", () => ["questions", "export"]],
  ["contact import", () => ["contact", "import", inputFile("help.json", JSON.stringify({ title: "Konseling", text: "Ruang B.104" }))]],
  ["contact export", () => ["contact", "export"]],
  ["notice import", () => ["notice", "import", inputFile("privacy-notice.json", JSON.stringify({ version: "2", title: "Privasi", text: "Isi." }))]],
  ["notice export", () => ["notice", "export"]],
  ["stats export", () => ["stats", "export"]],
  ["followup report", () => ["followup", "report", "--week"]],
  ["stats reliability", () => ["stats", "reliability"]],
  ["model validate", () => ["model", "validate"]],
  ["safety on", () => ["safety", "on", "--contact", "Konselor fakultas", "--phone", "0812 3456 7890"]],
  ["safety off", () => ["safety", "off"]],
  ["safety status", () => ["safety", "status"]],
  ["privacy export", () => ["privacy", "export", "--nim", "N001", "--out", join(temporaryDir("skrining-export-"), "N001.tar.gz")]],
  ["privacy erase", () => ["privacy", "erase", "--nim", "N001"]],
  ["privacy restrict", () => ["privacy", "restrict", "--nim", "N001"]],
  ["privacy unrestrict", () => ["privacy", "unrestrict", "--nim", "N001"]],
  ["privacy purge", () => ["privacy", "purge", "--before", "2020-01-01"]],
  ["migrate", () => ["migrate"]],
]);

