import { plainHttpWarning } from "../../tls/warnings";
import { conflict } from "../../errors";
import type { RouteGuards } from "../../http/guards";
import { qrDrawing } from "../../qr-code";
import { shortAddress } from "../../tls/certificate";
import { CertificateAnswer, CertificateRenewed } from "./model";
import { adminController, adminOnly, type AdminDependencies } from "./base";

export const certificateMessages = {
  plain: "Server berjalan tanpa HTTPS: tidak ada sertifikat untuk diperbarui. Jalankan 'skrining tls init' di PC server, lalu mulai ulang serve.",
  renewed: (until: string) => `Sertifikat server baru dari CA lokal sudah dipakai, berlaku sampai ${until}. Ponsel yang sudah memasang CA tidak perlu memasang apa pun.`,
} as const;

/**
 * "Sertifikat" (decisions §18): the certificate the server serves (the fingerprint of
 * the CA a phone installs, the days left, the names and addresses it covers, what is
 * wrong), the HTTPS address with its QR code for phones to scan off the PC's screen, the
 * certificate page's address, and a renewal from the local CA now. A renewal gives no one
 * access (the CA stays), so it needs no password again (decisions §21) and, as `tls init`,
 * leaves no audit row; serve's log line names the admin who asked.
 */
export const sertifikatController = (guards: RouteGuards, dependencies: AdminDependencies) =>
  adminController(guards, dependencies, "/sertifikat")
    .get(
      "",
      () => {
        const tls = dependencies.tls;
        if (!tls) {
          return { https: false, ca_lokal: false, dapat_diperbarui: false, sidik_jari: null, berakhir: null, hari_tersisa: null, nama: [], alamat: [], peringatan: [plainHttpWarning(dependencies.context.config.dataDir).replace(/^PERINGATAN: /, "")], alamat_https: [], halaman_sertifikat: [], qr: null };
        }
        const { served } = tls;
        const health = served.health();
        const { facts } = served.pair;
        const addresses = tls.addresses();
        return {
          https: true,
          ca_lokal: served.authorityCertificate() !== null,
          dapat_diperbarui: served.renewable,
          sidik_jari: health.sidik_jari,
          berakhir: health.berakhir,
          hari_tersisa: health.hari_tersisa,
          nama: facts.dnsNames,
          alamat: facts.ipAddresses.map(shortAddress),
          peringatan: health.peringatan,
          alamat_https: addresses.https,
          halaman_sertifikat: addresses.certificatePage,
          qr: addresses.https[0] ? qrDrawing(addresses.https[0]) : null,
        };
      },
      { access: adminOnly, response: { 200: CertificateAnswer } },
    )
    .post(
      "/perbarui",
      async ({ principal }) => {
        if (!dependencies.tls) throw conflict(certificateMessages.plain);
        const facts = await dependencies.tls.served.renewNow(`diminta admin ${principal.username} di konsol`);
        return { message: certificateMessages.renewed(facts.notAfter.toISOString().slice(0, 10)), berakhir: facts.notAfter.toISOString() };
      },
      { access: adminOnly, response: { 200: CertificateRenewed } },
    );
