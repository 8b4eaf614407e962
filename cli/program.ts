import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { StorageError, asStorageError, describeForAdmin } from "../src/db/storage";
import { describeBuild } from "../src/build-info";
import { ServiceError } from "../src/errors";
import { adminWebModes, type AdminWeb } from "../src/config";
import { httpApiModes, type HttpApi } from "../src/http/certificate-port";
import { readHostNames } from "../src/machine";
import { serve } from "../src/server";
import { openServedTls } from "../src/tls/served";
import { registerAccountCommands } from "./accounts";
import { registerAuditCommands } from "./audit";
import { automaticBackupsOf, backupDirOption, backupEveryOption, backupKeepOption, backupPassphraseFileOption, registerBackupCommands, type AutomaticBackupFlags } from "./backup";
import { registerCheckCommand } from "./check";
import { closeOpened, configOf, dataDirOf, ioLogger, timeZoneOf, type CommandIo } from "./common";
import { registerDoctorCommand } from "./doctor";
import { registerChangelogCommand } from "./changelog";
import { registerContentCommands } from "./content";
import { registerFollowUpCommands } from "./followup";
import { speakIndonesian } from "./indonesian";
import { registerMigrateCommand } from "./migrate";
import { logFileOption, logKeepOption, logMaxSizeOption, serveLogger, type LogFileFlags } from "./log-file";
import { registerModelCommands } from "./model";
import { choiceOption } from "./options";
import { registerPrivacyCommands } from "./privacy";
import { registerRollbackCommand } from "./rollback";
import { registerSafetyCommands } from "./safety";
import { registerStatsCommands } from "./stats";
import { registerTlsCommands } from "./tls";

/**
 * Exit codes: 0 done; 1 refused (a wrong command line, bad input, a rule, something not
 * found); 3 the storage failed (full, read-only, locked, damaged); 70 a fault of the
 * program itself, printed with its stack.
 */
const exitCodes = { refused: 1, storage: 3, internal: 70 } as const;

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new InvalidArgumentError("port harus 0–65535");
  return number;
}

/** The whole `skrining` program, printing through `io`; tests run it in-process. */
export function buildProgram(io: CommandIo): Command {
  const program = new Command("skrining")
    .description("Layanan skrining stres dan motivasi mahasiswa")
    // The version, the commit and the build date (src/build-info.ts), looked up only when asked.
    .option("-V, --version", "tampilkan versi, commit dan tanggal build")
    .on("option:version", () => {
      io.out(`${describeBuild()}\n`);
      throw new CommanderError(0, "commander.version", describeBuild());
    })
    .option("--data <folder>", "folder data (bawaan: ./data, atau SKRINING_DATA)")
    .option("--tz <zona>", "zona waktu fakultas untuk minggu dan tanggal (bawaan: Asia/Jakarta, atau SKRINING_TZ)")
    // Subcommands inherit both: commander's own messages go through `io`, and its exits become errors for run().
    .exitOverride();
  speakIndonesian(program, io);

  program
    .command("serve")
    .description("menjalankan layanan HTTP")
    .option("--host <host>", "alamat yang didengarkan", "0.0.0.0")
    .addOption(new Option("--port <port>", "port").default(5000).argParser(port))
    .addOption(new Option("--https-port <port>", "port HTTPS, bila folder data punya tls/ (skrining tls init) atau --tls-cert diberikan").default(5443).argParser(port))
    .option("--tls-cert <file>", "sertifikat TLS (PEM) dari tempat lain; tanpanya dipakai tls/ di folder data bila ada")
    .option("--tls-key <file>", "kunci privat TLS (PEM) pasangan --tls-cert")
    .addOption(
      choiceOption(
        "--http-api <boleh>",
        "dengan HTTPS: refuse = port tanpa enkripsi menolak API (bawaan), allow = tetap melayani API untuk aplikasi lama (diperingatkan tiap start)",
        httpApiModes,
      ),
    )
    .addOption(logFileOption())
    .addOption(logMaxSizeOption())
    .addOption(logKeepOption())
    .addOption(backupDirOption())
    .addOption(backupEveryOption())
    .addOption(backupKeepOption())
    .addOption(backupPassphraseFileOption())
    .option("--hostname <nama>", "nama lain PC ini yang boleh dipakai peramban, mis. skrining.fakultas.ac.id (boleh berulang; juga SKRINING_HOSTNAMES)", (name: string, names: string[] = []) => [...names, name])
    .option("--follow-up-stress-min <skor>", "skor stres yang selalu membuka tindak lanjut, 121–200 (bawaan: 160, atau SKRINING_FOLLOW_UP_STRESS_MIN)")
    .option(
      "--follow-up-contact-days <hari>",
      "tindak lanjut yang belum berhasil dihubungi sekian hari setelah dibuka ditandai terlambat, 1–30 (bawaan: 3, atau SKRINING_FOLLOW_UP_CONTACT_DAYS)",
    )
    .addOption(
      choiceOption(
        "--admin-web <tempat>",
        "dari mana konsol admin di peramban dapat dibuka: local = hanya dari PC ini, lan = juga dari jaringan kampus, off = tidak sama sekali (bawaan: local, atau SKRINING_ADMIN_WEB)",
        adminWebModes,
      ),
    )
    .action(async (options: ServeFlags, command: Command) => {
      const hostnames = readHostNames(options.hostname ?? []);
      const dataDir = dataDirOf(command, io);
      const backups = automaticBackupsOf(options, dataDir);
      const log = serveLogger(options, ioLogger(io), io, timeZoneOf(command, io));
      const outputClosed = new AbortController();
      io.onOutputClosed?.(() => outputClosed.abort());
      try {
        // Before the data folder is touched: a certificate refused (exit 1) leaves no half-made folder behind (decisions §18).
        const givenNames = [...readHostNames([io.environment.SKRINING_HOSTNAMES ?? ""]), ...hostnames];
        const tls = await openServedTls(dataDir, options, { host: options.host, givenNames, logger: log.logger });
        const config = configOf(command, io, "may-create", {
          SKRINING_FOLLOW_UP_STRESS_MIN: options.followUpStressMin,
          SKRINING_FOLLOW_UP_CONTACT_DAYS: options.followUpContactDays,
          SKRINING_ADMIN_WEB: options.adminWeb,
        });
        // The terminal alone, never the log file: where the first admin's generated password may be shown.
        const terminal = io.outIsTerminal ? (line: string) => io.out(`${line}\n`) : null;
        await serve(config, { ...options, tls, hostnames, backups, stop: outputClosed.signal, outputWritten: io.outputWritten, terminal }, log.logger, io.environment);
      } finally {
        log.close();
      }
    });

  registerAccountCommands(program, io);
  registerAuditCommands(program, io);
  registerBackupCommands(program, io);
  registerCheckCommand(program, io);
  registerMigrateCommand(program, io);
  registerRollbackCommand(program, io);
  registerDoctorCommand(program, io);
  registerChangelogCommand(program, io);
  registerModelCommands(program, io);
  registerContentCommands(program, io);
  registerStatsCommands(program, io);
  registerSafetyCommands(program, io);
  registerFollowUpCommands(program, io);
  registerPrivacyCommands(program, io);
  registerTlsCommands(program, io);
  return program;
}

type ServeFlags = {
  host: string;
  port: number;
  httpsPort: number;
  httpApi?: HttpApi;
  tlsCert?: string;
  tlsKey?: string;
  followUpStressMin?: string;
  followUpContactDays?: string;
  hostname?: string[];
  adminWeb?: AdminWeb;
} & LogFileFlags &
  AutomaticBackupFlags;

/**
 * Runs the program and turns whatever it throws into a message and an exit code: the one
 * place where the command line reports errors.
 */
export async function run(args: readonly string[], io: CommandIo): Promise<number> {
  // Everything the program creates (database, WAL, backups, exports) is its owner's alone,
  // whatever umask the shell or service manager set (decisions §9).
  process.umask(0o077);
  if (args.length === 0) return await withoutCommand(io);
  const program = buildProgram(io);
  try {
    await program.parseAsync([...args], { from: "user" });
    return 0;
  } catch (error) {
    return report(error, io);
  } finally {
    closeOpened(program);
  }
}

/**
 * `skrining` alone, or skrining.exe double-clicked in Explorer (issue 44, item 16): not a
 * window program, so it says how to start the service, in Indonesian; a window that would
 * close at once waits for Enter first. Exit code 1, as for any missing command.
 */
async function withoutCommand(io: CommandIo): Promise<number> {
  io.out(`${startHint(process.platform, process.execPath, Bun.isStandaloneExecutable).join("\n")}\n`);
  if (await io.consoleWindow?.closesOnExit()) {
    io.out("\nTekan Enter untuk menutup jendela ini.\n");
    await io.consoleWindow!.waitForEnter();
  }
  return exitCodes.refused;
}

/** What `skrining` without a command says: what it is, and how to start it on this system. */
export function startHint(platform: NodeJS.Platform, executable: string, compiled: boolean): string[] {
  if (platform === "win32") {
    const program = compiled ? `& "${executable}"` : "skrining";
    return [
      "skrining adalah layanan untuk jaringan kampus, bukan aplikasi berjendela: ia dijalankan dari PowerShell, atau sebagai layanan Windows yang mulai sendiri.",
      "Mencoba di PC ini, dari PowerShell (Administrator), dengan data di C:\\ProgramData\\skrining\\data:",
      `  ${program} --data C:\\ProgramData\\skrining\\data serve`,
      "lalu buka http://127.0.0.1:5000/ di peramban PC ini; hentikan dengan Ctrl+C.",
      'Sebagai layanan Windows (WinSW 2.12.0): README, bagian "Windows", dan docs/operations.md, bagian "Windows (WinSW)".',
      `Semua perintah: ${program} --help`,
    ];
  }
  return [
    "skrining adalah layanan untuk jaringan kampus: jalankan dari terminal, atau sebagai layanan systemd.",
    "Mencoba di PC ini:",
    "  skrining --data /var/lib/skrining serve",
    "lalu buka http://127.0.0.1:5000/ di peramban PC ini; hentikan dengan Ctrl+C.",
    'Sebagai layanan systemd: docs/operations.md, bagian "Running as a service".',
    "Semua perintah: skrining --help",
  ];
}

function report(error: unknown, io: CommandIo): number {
  // Commander has already printed its own message (a wrong option, --help, --version).
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : exitCodes.refused;
  const failure = asStorageError(error);
  if (failure instanceof StorageError) {
    io.err(`skrining: ${describeForAdmin(failure, "command")}\n`);
    return exitCodes.storage;
  }
  if (failure instanceof ServiceError) {
    for (const line of failure.details.lines ?? []) io.err(`${line}\n`);
    io.err(`skrining: ${failure.message}\n`);
    return exitCodes.refused;
  }
  io.err(`skrining: kesalahan tak terduga (mohon laporkan): ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}\n`);
  return exitCodes.internal;
}
