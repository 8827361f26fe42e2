CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `workspace_permissions` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`permission` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `workspace_permissions_user_idx` ON `workspace_permissions` (`user_id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`owner_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`parent_id` text,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folders_workspace_idx` ON `folders` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `workflow_deployments` (
	`id` text PRIMARY KEY NOT NULL,
	`workflow_id` text NOT NULL,
	`version` integer NOT NULL,
	`state` text NOT NULL,
	`state_version` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `workflow_deployments_workflow_idx` ON `workflow_deployments` (`workflow_id`,`version`);--> statement-breakpoint
CREATE TABLE `workflows` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`folder_id` text,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`state` text NOT NULL,
	`state_version` integer DEFAULT 1 NOT NULL,
	`deployed_version_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `workflows_workspace_idx` ON `workflows` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `workflows_folder_idx` ON `workflows` (`folder_id`);--> statement-breakpoint
CREATE TABLE `execution_log_models` (
	`log_id` text NOT NULL,
	`model` text NOT NULL,
	PRIMARY KEY(`log_id`, `model`),
	FOREIGN KEY (`log_id`) REFERENCES `execution_logs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `execution_log_models_model_idx` ON `execution_log_models` (`model`);--> statement-breakpoint
CREATE TABLE `execution_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`workflow_id` text NOT NULL,
	`execution_id` text NOT NULL,
	`user_id` text,
	`deployment_id` text,
	`status` text NOT NULL,
	`level` text NOT NULL,
	`trigger` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`total_duration_ms` integer,
	`cost_total` real DEFAULT 0 NOT NULL,
	`cost` text,
	`files` text,
	`trace_spans` text,
	`final_output` text,
	`error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `execution_logs_execution_id_unique` ON `execution_logs` (`execution_id`);--> statement-breakpoint
CREATE INDEX `execution_logs_workspace_started_idx` ON `execution_logs` (`workspace_id`,`started_at`,`id`);--> statement-breakpoint
CREATE INDEX `execution_logs_workflow_started_idx` ON `execution_logs` (`workflow_id`,`started_at`,`id`);--> statement-breakpoint
CREATE INDEX `execution_logs_running_idx` ON `execution_logs` (`workspace_id`,`status`,`started_at`);--> statement-breakpoint
CREATE TABLE `rate_limit_buckets` (
	`key` text PRIMARY KEY NOT NULL,
	`tokens` real NOT NULL,
	`updated_at` integer NOT NULL,
	`last_allowed` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `usage_periods` (
	`user_id` text NOT NULL,
	`period` text NOT NULL,
	`cost` real DEFAULT 0 NOT NULL,
	`executions` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `period`)
);
