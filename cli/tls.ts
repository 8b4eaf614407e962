import { InvalidArgumentError, type Command } from "commander";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { readHostNames } from "../src/machine";
import { shortAddress, type CertificateFacts } from "../src/tls/certificate";
import { coverageFor, initialiseTls, serverCertificateDays, tlsPaths } from "../src/tls/local";
import { localTlsStatus } from "../src/tls/status";
import { commandOn } from "../src/command-line";
import { assertMayStartDataFolder } from "../src/config";
import { dataDirNamedBy, dataDirOf, newDataFolderLine, type CommandIo } from "./common";

const dateOf = (date: Date) => date.toISOString().slice(0, 10);

function days(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > serverCertificateDays) throw new InvalidArgumentError(`jumlah hari harus 1–${serverCertificateDays}`);
  return number;
}

/** The lines that list what a server certificate covers. */
function coveredLines(facts: CertificateFacts): string[] {
  return [`  nama:   ${facts.dnsNames.join(", ")}`, `  alamat: ${facts.ipAddresses.map(shortAddress).join(", ")}`];
}

/**
 * `skrining tls init` and `skrining tls status` (decisions §18): the data folder's local
 * certificate authority and the server certificate it signs, for `serve`'s HTTPS.
 */
export function registerTlsCommands(program: Command, io: CommandIo): void {
  const group = program.command("tls").description("HTTPS di jaringan kampus: CA lokal dan sertifikat server di folder data (tls/)");

  group
    .command("init")
    .description("membuat CA lokal (bila belum ada) dan sertifikat server baru untuk semua alamat dan nama PC ini")
    .option("--hostname <nama>", "nama lain PC ini yang dicakup sertifikat, mis. skrining.fakultas.ac.id (boleh berulang; juga SKRINING_HOSTNAMES)", (name: string, names: string[] = []) => [...names, name])
    .option("--days <hari>", `masa berlaku sertifikat server dalam hari, 1–${serverCertificateDays} (bawaan: ${serverCertificateDays})`, days)
    .option("--if-missing", "tidak membuat apa pun bila tls/ sudah berisi CA dan sertifikat (untuk unit layanan)")
    .action(async (options: { hostname?: string[]; days?: number; ifMissing?: boolean }, command: Command) => {
      const names = readHostNames([io.environment.SKRINING_HOSTNAMES ?? "", ...(options.hostname ?? [])]);
      const dataDir = dataDirOf(command, io);
      const paths = tlsPaths(dataDir);
      if (options.ifMissing && existsSync(paths.certificate) && existsSync(paths.authorityCertificate)) {
        io.out(`${paths.folder} sudah berisi CA lokal dan sertifikat server; tidak ada yang dibuat ('${commandOn(dataDir, "tls status")}' untuk rinciannya).\n`);
        return;
      }
      // Only a folder --data names becomes a new data folder (issue 44), its owner's alone (decisions §9); tls/ may be its first content.
      assertMayStartDataFolder(dataDir, dataDirNamedBy(command, io));
      if (!existsSync(dataDir)) {
        mkdirSync(dataDir, { recursive: true, mode: 0o700 });
        chmodSync(dataDir, 0o700);
        io.out(newDataFolderLine(dataDir));
      }
      const outcome = await initialiseTls(dataDir, coverageFor(names), options.days ?? serverCertificateDays);
      const { authority, certificate } = outcome;
      io.out(
        [
          outcome.authorityCreated
            ? `CA lokal baru dibuat: ${paths.authorityCertificate} (kunci ${paths.authorityKey}, hanya untuk pemiliknya), berlaku sampai ${dateOf(authority.notAfter)}.`
            : `CA lokal yang sudah ada tetap dipakai: ${paths.authorityCertificate} (ponsel yang sudah memasangnya tidak perlu memasang ulang).`,
          `Sertifikat server baru: ${paths.certificate}, berlaku sampai ${dateOf(certificate.notAfter)}, untuk:`,
          ...coveredLines(certificate),
          `Sidik jari SHA-256 CA lokal: ${authority.fingerprint}`,
          `Pasang CA ini di ponsel dan PC lab: jalankan '${commandOn(dataDir, "serve")}', lalu buka http://<alamat PC>:5000/ dari ponsel (docs/operations.md, bagian HTTPS).`,
          "Server yang sedang berjalan dengan HTTPS memakai sertifikat baru ini dalam semenit; yang berjalan tanpa HTTPS perlu dimulai ulang.",
        ].join("\n") + "\n",
      );
    });

  group
    .command("status")
    .description("mencetak sidik jari CA lokal, nama dan alamat yang dicakup sertifikat server, dan sisa harinya")
    .option("--json", "keluaran JSON")
    .action((options: { json?: boolean }, command: Command) => {
      const status = localTlsStatus(dataDirOf(command, io));
      if (options.json) {
        io.out(
          `${JSON.stringify(
            {
              ca: { sidik_jari: status.authority.fingerprint, subjek: status.authority.subject, berakhir: status.authority.notAfter.toISOString() },
              sertifikat: { berakhir: status.certificate.notAfter.toISOString(), hari_tersisa: status.daysLeft, nama: status.names, alamat: status.addresses },
              peringatan: status.warnings,
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      io.out(
        [
          `CA lokal: ${status.paths.authorityCertificate}, berlaku sampai ${dateOf(status.authority.notAfter)}`,
          `Sidik jari SHA-256 CA lokal: ${status.authority.fingerprint}`,
          `Sertifikat server: ${status.paths.certificate}, berlaku sampai ${dateOf(status.certificate.notAfter)} (sisa ${status.daysLeft} hari), untuk:`,
          ...coveredLines(status.certificate),
          ...(status.warnings.length === 0 ? ["Tidak ada masalah."] : status.warnings.map((warning) => `PERINGATAN: ${warning}`)),
        ].join("\n") + "\n",
      );
    });
}
