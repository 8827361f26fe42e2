ALTER TABLE `execution_logs` ADD `owner_process` text;--> statement-breakpoint
CREATE INDEX `execution_logs_open_runs_idx` ON `execution_logs` (`started_at`) WHERE status = 'running';