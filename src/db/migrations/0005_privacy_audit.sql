CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`actor_user_id` integer,
	`actor_username` text,
	`actor_role` text NOT NULL,
	`actor_name` text,
	`client_address` text,
	`action` text NOT NULL,
	`nim` text,
	`target` text NOT NULL,
	`detail` text,
	`previous_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_nim_index` ON `audit_log` (`nim`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_index` ON `audit_log` (`actor_username`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_at_index` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_action_index` ON `audit_log` (`action`,`id`);--> statement-breakpoint
CREATE TABLE `privacy_acknowledgements` (
	`Id_User` integer NOT NULL,
	`notice_version` text NOT NULL,
	`acknowledged_at` text NOT NULL,
	PRIMARY KEY(`Id_User`, `notice_version`),
	FOREIGN KEY (`Id_User`) REFERENCES `users`(`Id_User`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `mahasiswa` ADD `dibatasi_sejak` text;--> statement-breakpoint
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`
BEGIN
	SELECT RAISE(ABORT, 'audit_log hanya boleh ditambah: baris tidak boleh diubah');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log`
BEGIN
	SELECT RAISE(ABORT, 'audit_log hanya boleh ditambah: baris tidak boleh dihapus');
END;
