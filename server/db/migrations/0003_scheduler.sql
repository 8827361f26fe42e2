CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `schedule_states` (
	`workflow_id` text PRIMARY KEY NOT NULL,
	`last_tick_at` integer,
	`next_tick_at` integer,
	`updated_at` integer NOT NULL
);
