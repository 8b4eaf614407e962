// The pages of the web interface, by path. The server serves the page for exactly these
// paths (src/http/web.ts) and the browser's router shows them (app.tsx): one list for both.

export type PageRole = "guest" | "mahasiswa" | "staff" | "admin";

export interface PageRoute {
  /** A path; `:name` stands for one segment (`/dosen/mahasiswa/:nim`). */
  path: string;
  /** Who the page is for: signed-out visitors, students, lecturers and admins, or admins alone (the console). */
  role: PageRole;
}

export const pageRoutes = {
  masuk: { path: "/masuk", role: "guest" },
  aktivasi: { path: "/aktivasi", role: "guest" },
  beranda: { path: "/", role: "mahasiswa" },
  kuesioner: { path: "/kuesioner", role: "mahasiswa" },
  hasil: { path: "/hasil", role: "mahasiswa" },
  riwayat: { path: "/riwayat", role: "mahasiswa" },
  mood: { path: "/mood", role: "mahasiswa" },
  jurnal: { path: "/jurnal", role: "mahasiswa" },
  catatan: { path: "/catatan", role: "mahasiswa" },
  profil: { path: "/profil", role: "mahasiswa" },
  dataSaya: { path: "/data-saya", role: "mahasiswa" },
  bimbingan: { path: "/dosen", role: "staff" },
  hariIni: { path: "/dosen/hari-ini", role: "staff" },
  profilDosen: { path: "/dosen/profil", role: "staff" },
  detailMahasiswa: { path: "/dosen/mahasiswa/:nim", role: "staff" },
  tindakLanjut: { path: "/dosen/tindak-lanjut", role: "staff" },
  detailTindakLanjut: { path: "/dosen/tindak-lanjut/:id", role: "staff" },
  statistik: { path: "/dosen/statistik", role: "staff" },
  // The admin console: served only where `serve --admin-web` allows (src/http/web.ts).
  konsol: { path: "/admin", role: "admin" },
  adminAkun: { path: "/admin/akun", role: "admin" },
  adminCadangan: { path: "/admin/cadangan", role: "admin" },
  adminSertifikat: { path: "/admin/sertifikat", role: "admin" },
  adminJejak: { path: "/admin/jejak-audit", role: "admin" },
  adminDataPribadi: { path: "/admin/data-pribadi", role: "admin" },
  adminModel: { path: "/admin/model", role: "admin" },
  adminTeks: { path: "/admin/teks", role: "admin" },
  adminStatistik: { path: "/admin/statistik", role: "admin" },
} satisfies Record<string, PageRoute>;

export type PageName = keyof typeof pageRoutes;

/** The page a path shows and its parameters, or null when no page has that path. */
export function matchPage(pathname: string): { name: PageName; params: Record<string, string> } | null {
  const parts = pathname.replace(/\/+$/, "").split("/");
  for (const [name, route] of Object.entries(pageRoutes) as [PageName, PageRoute][]) {
    const pattern = route.path === "/" ? [""] : route.path.split("/");
    if (pattern.length !== Math.max(parts.length, 1)) continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((segment, index) => {
      const part = parts[index] ?? "";
      if (segment.startsWith(":")) {
        const value = decodeSegment(part);
        if (!value) return false;
        params[segment.slice(1)] = value;
        return true;
      }
      return segment === part;
    });
    if (fits) return { name, params };
  }
  return null;
}

/** The path of a page, its parameters filled in. */
export function pathOf(name: PageName, params: Record<string, string> = {}): string {
  return pageRoutes[name].path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ""));
}

/** A path segment decoded; null for an empty or malformed one (`%E0`). */
function decodeSegment(part: string): string | null {
  try {
    return part === "" ? null : decodeURIComponent(part);
  } catch {
    return null;
  }
}
