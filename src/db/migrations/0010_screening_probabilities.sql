ALTER TABLE `riwayat_skrining` ADD `stress_probability` real;--> statement-breakpoint
ALTER TABLE `riwayat_skrining` ADD `motivasi_probability` real;