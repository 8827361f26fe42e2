CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`run_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer NOT NULL,
	`lease_owner` text,
	`lease_expires_at` integer,
	`lost_count` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`result` text,
	`workspace_id` text,
	`user_id` text,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`completed_at` integer
);
--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`kind`,`run_at`) WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX `jobs_lease_idx` ON `jobs` (`lease_expires_at`) WHERE status = 'processing';--> statement-breakpoint
CREATE INDEX `jobs_finished_idx` ON `jobs` (`completed_at`) WHERE status IN ('completed', 'failed');