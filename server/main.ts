// Entry for `npm start` (Node) and `npm run start:deno` (Deno): the same file on both.
import process from "node:process";
import { ConfigError } from "./config.ts";
import { startServer } from "./start.ts";

try {
  const running = await startServer({ env: process.env, banner: true });
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
