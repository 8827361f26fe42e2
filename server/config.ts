import { z } from "zod";
import { defaultSandboxThreads } from "./executor/sandbox/limits.ts";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  ADMIN_API_KEY: z.string().min(16, "ADMIN_API_KEY must be at least 16 characters").optional(),
  ENCRYPTION_KEY: z.string().optional(),
  ALLOW_PRIVATE_NETWORK: flag,
  LICENSE: z.string().optional(),
  LICENSE_FILE: z.string().optional(),
  LICENSE_PUBLIC_KEY: z.string().optional(),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  ROLE: z.enum(["all", "api", "worker"]).default("all"),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(64),
  JOB_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  SANDBOX_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  OPENAI_BASE_URL: z.string().url().default("https://api.openai.com/v1"),
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.string().url().default("https://api.anthropic.com"),
  ANTHROPIC_API_KEY: z.string().optional(),
  GOOGLE_BASE_URL: z.string().url().default("https://generativelanguage.googleapis.com"),
  GOOGLE_API_KEY: z.string().optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  databaseAuthToken?: string;
  adminApiKey?: string;
  encryptionKey?: string;
  allowPrivateNetwork: boolean;
  /** Inline license JSON, or the path of a license file. */
  license?: string;
  licenseFile?: string;
  licensePublicKey?: string;
  publicUrl?: string;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** HTTP server processes sharing the port and the database (Node only). */
  workers: number;
  /** What this process does: serve HTTP (`api`), run queued jobs and schedules (`worker`), or both (`all`). */
  role: "all" | "api" | "worker";
  /** Jobs (async runs) one worker process runs at once. */
  workerConcurrency: number;
  /** How long a claimed job is a worker's alone; a lost worker's jobs are taken again after it. */
  jobLeaseMs: number;
  /** Threads running user JavaScript (function blocks, conditions): at most this many runs at once (docs/sandbox.md). */
  sandboxThreads: number;
  /** Where each model provider is reached, and the platform key used when a workspace has none (docs/models.md). */
  modelProviders: Record<"openai" | "anthropic" | "google", ModelProviderSettings>;
};

export type ModelProviderSettings = { baseUrl: string; apiKey?: string };

export class ConfigError extends Error {}

/** Parses the environment once; nothing else in the server reads `process.env`. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "unset", as in most shells' `VAR= command`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  const databaseUrl = e.DATABASE_URL ?? `file:${e.DATA_DIR.replace(/\/$/, "")}/app.db`;
  if (!/^(file:|:memory:$|libsql:\/\/|https?:\/\/|wss?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_URL: expected file:, :memory:, libsql://, http(s):// or ws(s)://",
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN || undefined,
    adminApiKey: e.ADMIN_API_KEY,
    encryptionKey: e.ENCRYPTION_KEY || undefined,
    allowPrivateNetwork: e.ALLOW_PRIVATE_NETWORK,
    license: e.LICENSE || undefined,
    licenseFile: e.LICENSE_FILE || undefined,
    licensePublicKey: e.LICENSE_PUBLIC_KEY || undefined,
    publicUrl: e.PUBLIC_URL,
    logLevel: e.LOG_LEVEL,
    workers: e.WORKERS,
    role: e.ROLE,
    workerConcurrency: e.WORKER_CONCURRENCY,
    jobLeaseMs: e.JOB_LEASE_MS,
    sandboxThreads: e.SANDBOX_THREADS ?? defaultSandboxThreads(),
    modelProviders: {
      openai: { baseUrl: trimSlash(e.OPENAI_BASE_URL), apiKey: e.OPENAI_API_KEY },
      anthropic: { baseUrl: trimSlash(e.ANTHROPIC_BASE_URL), apiKey: e.ANTHROPIC_API_KEY },
      google: { baseUrl: trimSlash(e.GOOGLE_BASE_URL), apiKey: e.GOOGLE_API_KEY },
    },
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
