import type { Command } from "commander";
import { buildInfo } from "../src/build-info";
import { changelog, releaseNotes } from "../src/changelog";
import type { CommandIo } from "./common";

/** `skrining changelog [--all]`: what this release changed, from the CHANGELOG.md the build embeds. */
export function registerChangelogCommand(program: Command, io: CommandIo): void {
  program
    .command("changelog")
    .description("mencetak catatan perubahan rilis ini (dari CHANGELOG.md di dalam program); --all: semua rilis")
    .option("--all", "semua rilis, yang terbaru dahulu")
    .action((options: { all?: boolean }) => {
      const { version } = buildInfo();
      io.out(options.all ? changelog : (releaseNotes(version) ?? `Versi ${version} belum punya catatan di CHANGELOG.md.\n`));
    });
}
