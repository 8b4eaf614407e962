#!/usr/bin/env bun
import { Command, InvalidArgumentError, Option } from "commander";
import packageJson from "../package.json";
import { registerAccountCommands } from "./accounts";
import { registerBackupCommand } from "./backup";
import { registerCheckCommand } from "./check";
import { registerModelCommands } from "./model";
import { registerQuestionCommands } from "./questions";
import { registerStatsCommands } from "./stats";
import { dataDirOf } from "./common";
import { StorageError, asStorageError, describeForAdmin } from "../src/db/storage";
import { loadConfig } from "../src/config";
import { consoleLogger } from "../src/logger";
import { serve } from "../src/server";

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new InvalidArgumentError("port harus 0–65535");
  return number;
}

// Everything the program creates (database, WAL, backups, exports) is its owner's alone,
// whatever umask the shell or service manager set (decisions §9).
process.umask(0o077);

const program = new Command("skrining")
  .description("Layanan skrining stres dan motivasi mahasiswa")
  .version(packageJson.version, "-V, --version")
  .option("--data <dir>", "folder data (default ./data, atau SKRINING_DATA)");

program
  .command("serve")
  .description("menjalankan layanan HTTP")
  .option("--host <host>", "alamat yang didengarkan", "0.0.0.0")
  .addOption(new Option("--port <port>", "port").default(5000).argParser(port))
  .option("--tls-cert <file>", "sertifikat TLS (PEM)")
  .option("--tls-key <file>", "kunci privat TLS (PEM)")
  .action(async (options: { host: string; port: number; tlsCert?: string; tlsKey?: string }, command: Command) => {
    await serve(loadConfig(dataDirOf(command)), options, consoleLogger);
  });

registerAccountCommands(program);
registerBackupCommand(program);
registerCheckCommand(program);
registerModelCommands(program);
registerQuestionCommands(program);
registerStatsCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const failure = asStorageError(error);
  const message = failure instanceof StorageError ? describeForAdmin(failure) : failure instanceof Error ? failure.message : String(failure);
  console.error(`skrining: ${message}`);
  process.exit(1);
}
