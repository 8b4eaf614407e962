CREATE TABLE `catatan_konseling` (
	`Id_catatan` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`NIM` text NOT NULL,
	`NIP` text NOT NULL,
	`isi_catatan` text NOT NULL,
	`tanggal_catat` text NOT NULL,
	`reply` text DEFAULT '' NOT NULL,
	`tanggal_reply` text,
	FOREIGN KEY (`NIM`) REFERENCES `mahasiswa`(`NIM`) ON UPDATE cascade ON DELETE restrict,
	FOREIGN KEY (`NIP`) REFERENCES `dosen`(`NIP`) ON UPDATE cascade ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `catatan_nim_index` ON `catatan_konseling` (`NIM`,`tanggal_catat`);--> statement-breakpoint
CREATE INDEX `catatan_nip_index` ON `catatan_konseling` (`NIP`);--> statement-breakpoint
CREATE TABLE `diary_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`nim` text NOT NULL,
	`date` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`content` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`nim`) REFERENCES `mahasiswa`(`NIM`) ON UPDATE cascade ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `diary_nim_date_index` ON `diary_entries` (`nim`,`date`,`created_at`);--> statement-breakpoint
CREATE TABLE `dosen` (
	`NIP` text PRIMARY KEY NOT NULL,
	`nama_dosen` text DEFAULT '' NOT NULL,
	`Id_User` integer NOT NULL,
	FOREIGN KEY (`Id_User`) REFERENCES `users`(`Id_User`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dosen_Id_User_unique` ON `dosen` (`Id_User`);--> statement-breakpoint
CREATE TABLE `jurusan` (
	`Id_Jurusan` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`nama_jurusan` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jurusan_nama_jurusan_unique` ON `jurusan` (`nama_jurusan`);--> statement-breakpoint
CREATE TABLE `mahasiswa` (
	`NIM` text PRIMARY KEY NOT NULL,
	`nama_mahasiswa` text,
	`Id_User` integer NOT NULL,
	`id_jurusan` integer,
	`angkatan` text,
	`kelas` text,
	`NIP_doswal` text,
	`IPK` real,
	`usia` integer,
	`gender` text,
	`freq_olahraga` text,
	`durasi_tidur` text,
	`foto_profil` text,
	FOREIGN KEY (`Id_User`) REFERENCES `users`(`Id_User`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`id_jurusan`) REFERENCES `jurusan`(`Id_Jurusan`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`NIP_doswal`) REFERENCES `dosen`(`NIP`) ON UPDATE cascade ON DELETE set null,
	CONSTRAINT "mahasiswa_ipk_check" CHECK("mahasiswa"."IPK" IS NULL OR ("mahasiswa"."IPK" >= 0 AND "mahasiswa"."IPK" <= 4))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mahasiswa_Id_User_unique` ON `mahasiswa` (`Id_User`);--> statement-breakpoint
CREATE INDEX `mahasiswa_nip_doswal_index` ON `mahasiswa` (`NIP_doswal`,`NIM`);--> statement-breakpoint
CREATE TABLE `mood_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`nim` text NOT NULL,
	`date` text NOT NULL,
	`mood_value` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`nim`) REFERENCES `mahasiswa`(`NIM`) ON UPDATE cascade ON DELETE restrict,
	CONSTRAINT "mood_value_check" CHECK("mood_entries"."mood_value" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mood_nim_date_index` ON `mood_entries` (`nim`,`date`);--> statement-breakpoint
CREATE TABLE `prediction_models` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`file_path` text NOT NULL,
	`is_active` integer DEFAULT false NOT NULL,
	`thresholds` text,
	`algorithm` text NOT NULL,
	`version` text NOT NULL,
	`input_features` text NOT NULL,
	`categories` text,
	`metrics` text,
	`source_sha256` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "prediction_models_type_check" CHECK("prediction_models"."type" IN ('stress', 'motivasi'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `prediction_models_one_active_index` ON `prediction_models` (`type`) WHERE "prediction_models"."is_active" = 1;--> statement-breakpoint
CREATE TABLE `revoked_tokens` (
	`jti` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `revoked_tokens_expires_index` ON `revoked_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `riwayat_skrining` (
	`Id_skrining` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`NIM` text NOT NULL,
	`tanggal_skrining` text NOT NULL,
	`input_jawaban` text NOT NULL,
	`tingkat_stres` text NOT NULL,
	`tingkat_motivasi` text NOT NULL,
	`saran` text NOT NULL,
	`score_stress` real NOT NULL,
	`score_sdi` real NOT NULL,
	`stress_model_id` integer,
	`motivasi_model_id` integer,
	FOREIGN KEY (`NIM`) REFERENCES `mahasiswa`(`NIM`) ON UPDATE cascade ON DELETE restrict,
	FOREIGN KEY (`stress_model_id`) REFERENCES `prediction_models`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`motivasi_model_id`) REFERENCES `prediction_models`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "riwayat_tingkat_stres_check" CHECK("riwayat_skrining"."tingkat_stres" IN ('Rendah', 'Sedang', 'Tinggi')),
	CONSTRAINT "riwayat_tingkat_motivasi_check" CHECK("riwayat_skrining"."tingkat_motivasi" IN ('Rendah', 'Sedang', 'Tinggi'))
);
--> statement-breakpoint
CREATE INDEX `riwayat_nim_tanggal_index` ON `riwayat_skrining` (`NIM`,`tanggal_skrining`);--> statement-breakpoint
CREATE INDEX `riwayat_tanggal_index` ON `riwayat_skrining` (`tanggal_skrining`);--> statement-breakpoint
CREATE TABLE `users` (
	`Id_User` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text NOT NULL,
	`is_activated` integer DEFAULT false NOT NULL,
	`password_version` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	CONSTRAINT "users_role_check" CHECK("users"."role" IN ('mahasiswa', 'dosen', 'admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE INDEX `users_role_index` ON `users` (`role`);