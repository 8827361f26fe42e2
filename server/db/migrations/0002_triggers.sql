CREATE TABLE `chat_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversation_id` text NOT NULL,
	`workflow_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chat_messages_conversation_idx` ON `chat_messages` (`workflow_id`,`conversation_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `workflow_triggers` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`workflow_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`deployment_id` text NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workflow_triggers_kind_key_idx` ON `workflow_triggers` (`kind`,`key`);--> statement-breakpoint
CREATE UNIQUE INDEX `workflow_triggers_workflow_idx` ON `workflow_triggers` (`workflow_id`);