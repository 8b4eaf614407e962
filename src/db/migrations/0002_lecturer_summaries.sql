CREATE TABLE `latest_skrining` (
	`NIM` text PRIMARY KEY NOT NULL,
	`Id_skrining` integer NOT NULL,
	`tanggal_skrining` text NOT NULL,
	`tingkat_stres` text NOT NULL,
	`tingkat_motivasi` text NOT NULL,
	`is_spike` integer NOT NULL,
	`early_warning` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `lecturer_weekly_levels` (
	`NIP` text NOT NULL,
	`week_start` text NOT NULL,
	`stress_rendah` integer NOT NULL,
	`stress_sedang` integer NOT NULL,
	`stress_tinggi` integer NOT NULL,
	`motivasi_rendah` integer NOT NULL,
	`motivasi_sedang` integer NOT NULL,
	`motivasi_tinggi` integer NOT NULL,
	PRIMARY KEY(`NIP`, `week_start`)
);
