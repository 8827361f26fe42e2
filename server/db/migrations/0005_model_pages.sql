ALTER TABLE `execution_log_models` ADD `workspace_id` text;--> statement-breakpoint
ALTER TABLE `execution_log_models` ADD `started_at` integer;--> statement-breakpoint
UPDATE `execution_log_models` SET `workspace_id` = (SELECT `workspace_id` FROM `execution_logs` WHERE `id` = `log_id`), `started_at` = (SELECT `started_at` FROM `execution_logs` WHERE `id` = `log_id`);--> statement-breakpoint
CREATE INDEX `execution_log_models_page_idx` ON `execution_log_models` (`workspace_id`,`model`,`started_at`,`log_id`);