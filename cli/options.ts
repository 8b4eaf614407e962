import { InvalidArgumentError, Option } from "commander";

/**
 * An option whose value is one of `choices`, matched in any case (`--format CSV`,
 * `--role Mahasiswa`) and given to the command in the spelling of `choices`; anything else
 * is refused with the choices listed, in Indonesian.
 */
export function choiceOption<const Choice extends string>(flags: string, description: string, choices: readonly Choice[]): Option {
  return new Option(flags, `${description} (pilihan: ${choices.join(", ")})`).argParser((value: string) => {
    const chosen = choices.find((choice) => choice.toLowerCase() === value.trim().toLowerCase());
    if (chosen === undefined) throw new InvalidArgumentError(`pilih salah satu dari ${choices.join(", ")}.`);
    return chosen;
  });
}
