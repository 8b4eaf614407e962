CREATE TABLE `tindak_lanjut` (
	`Id_tindak_lanjut` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`NIM` text NOT NULL,
	`NIP` text,
	`alasan_early_warning` integer NOT NULL,
	`alasan_perubahan_mendadak` integer NOT NULL,
	`Id_skrining` integer,
	`status` text NOT NULL,
	`dibuka_pada` text NOT NULL,
	`pertama_dihubungi_pada` text,
	`ditutup_pada` text,
	`diperbarui_pada` text NOT NULL,
	FOREIGN KEY (`NIM`) REFERENCES `mahasiswa`(`NIM`) ON UPDATE cascade ON DELETE restrict,
	FOREIGN KEY (`NIP`) REFERENCES `dosen`(`NIP`) ON UPDATE cascade ON DELETE set null,
	FOREIGN KEY (`Id_skrining`) REFERENCES `riwayat_skrining`(`Id_skrining`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "tindak_lanjut_status_check" CHECK("tindak_lanjut"."status" IN ('baru', 'dihubungi', 'dirujuk', 'selesai')),
	CONSTRAINT "tindak_lanjut_alasan_check" CHECK("tindak_lanjut"."alasan_early_warning" = 1 OR "tindak_lanjut"."alasan_perubahan_mendadak" = 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tindak_lanjut_one_open_index` ON `tindak_lanjut` (`NIM`) WHERE "tindak_lanjut"."status" <> 'selesai';--> statement-breakpoint
CREATE INDEX `tindak_lanjut_nip_index` ON `tindak_lanjut` (`NIP`,`status`,`dibuka_pada`);--> statement-breakpoint
CREATE TABLE `tindak_lanjut_riwayat` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`Id_tindak_lanjut` integer NOT NULL,
	`status_dari` text,
	`status_ke` text NOT NULL,
	`catatan` text NOT NULL,
	`Id_User` integer,
	`nama` text NOT NULL,
	`waktu` text NOT NULL,
	FOREIGN KEY (`Id_tindak_lanjut`) REFERENCES `tindak_lanjut`(`Id_tindak_lanjut`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "tindak_lanjut_riwayat_catatan_check" CHECK(length("tindak_lanjut_riwayat"."catatan") BETWEEN 1 AND 2000)
);
--> statement-breakpoint
CREATE INDEX `tindak_lanjut_riwayat_case_index` ON `tindak_lanjut_riwayat` (`Id_tindak_lanjut`,`id`);--> statement-breakpoint
CREATE INDEX `tindak_lanjut_riwayat_waktu_index` ON `tindak_lanjut_riwayat` (`waktu`);