import { type Command, Help, type Option } from "commander";

// commander writes its own help and error texts in English; the command line speaks
// Indonesian throughout, so those texts are replaced here, once, for every subcommand
// (each inherits these settings when it is created).

const titles: Record<string, string> = {
  "Usage:": "Pemakaian:",
  "Arguments:": "Argumen:",
  "Options:": "Opsi:",
  "Global Options:": "Opsi global:",
  "Commands:": "Perintah:",
};

/** commander's error texts by their English wording; `$1`… are the names and values they quote. */
const errorTexts: [RegExp, string][] = [
  [/^error: missing required argument '(.+)'$/m, "kesalahan: argumen '$1' wajib diberikan."],
  [/^error: option '(.+)' argument missing$/m, "kesalahan: opsi '$1' memerlukan nilai."],
  [/^error: required option '(.+)' not specified$/m, "kesalahan: opsi wajib '$1' belum diberikan."],
  [/^error: (.+) cannot be used with (.+)$/m, "kesalahan: $1 tidak dapat dipakai bersama $2."],
  [/^error: unknown option '(.+)'/m, "kesalahan: opsi '$1' tidak dikenal."],
  [/^error: too many arguments for '(.+)'\. Expected (\d+) arguments? but got (\d+)\.$/m, "kesalahan: terlalu banyak argumen untuk '$1': seharusnya $2, diberikan $3."],
  [/^error: too many arguments\. Expected (\d+) arguments? but got (\d+)\.$/m, "kesalahan: terlalu banyak argumen: seharusnya $1, diberikan $2."],
  [/^error: unknown command '(.+)'/m, "kesalahan: perintah '$1' tidak dikenal."],
  [/^error: option '(.+)' argument '(.*)' is invalid\. /m, "kesalahan: nilai '$2' untuk opsi '$1' tidak dapat dipakai: "],
  [/^error: command-argument value '(.*)' is invalid for argument '(.+)'\. /m, "kesalahan: nilai '$1' untuk argumen '$2' tidak dapat dipakai: "],
  [/\(Did you mean one of (.+)\?\)/, "(Mungkin maksud Anda salah satu dari $1?)"],
  [/\(Did you mean (.+)\?\)/, "(Mungkin maksud Anda $1?)"],
  [/^error: /m, "kesalahan: "],
];

/** A message of commander's in Indonesian; the project's own messages pass unchanged. */
export function translateCommanderMessage(text: string): string {
  return errorTexts.reduce((translated, [english, indonesian]) => translated.replace(english, indonesian), text);
}

/** commander's placeholders in a usage line. */
const usageWords = (usage: string) => usage.replace("[options]", "[opsi]").replace("[command]", "[perintah]");

/** The option's description with its default, as commander adds it, in Indonesian. */
function optionDescription(option: Option): string {
  const takesValue = option.required || option.optional;
  const shown = option.defaultValueDescription ?? (option.defaultValue === undefined ? undefined : JSON.stringify(option.defaultValue));
  return takesValue && shown !== undefined ? `${option.description} (bawaan: ${shown})` : option.description;
}

/** Indonesian help and errors for `program` and every subcommand created after this call. */
export function speakIndonesian(program: Command, write: { out(text: string): void; err(text: string): void }): Command {
  return program
    .helpOption("-h, --help", "tampilkan bantuan")
    .helpCommand("help [perintah]", "tampilkan bantuan untuk perintah")
    .configureHelp({
      styleTitle: (title: string) => titles[title] ?? title,
      optionDescription: (option: Option) => optionDescription(option),
      commandUsage(this: Help, command: Command) {
        return usageWords(Help.prototype.commandUsage.call(this, command));
      },
      subcommandTerm(this: Help, command: Command) {
        return usageWords(Help.prototype.subcommandTerm.call(this, command));
      },
    } as Partial<Help>)
    .configureOutput({
      writeOut: (text) => write.out(text),
      writeErr: (text) => write.err(text),
      outputError: (text, writeErr) => writeErr(translateCommanderMessage(text)),
    });
}
