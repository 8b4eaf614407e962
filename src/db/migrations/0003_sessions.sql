CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`Id_User` integer NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` integer NOT NULL,
	`ended_at` text,
	FOREIGN KEY (`Id_User`) REFERENCES `users`(`Id_User`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_index` ON `sessions` (`Id_User`);--> statement-breakpoint
CREATE INDEX `sessions_expires_index` ON `sessions` (`expires_at`);--> statement-breakpoint
DROP TABLE `revoked_tokens`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `password_version`;