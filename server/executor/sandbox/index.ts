export { evaluateExpression } from "./evaluate-expression.ts";
export { DEFAULT_SANDBOX_LIMITS } from "./limits.ts";
export { runUserCode } from "./run-user-code.ts";
export { closeSandbox, configureSandbox } from "./sandbox-threads.ts";
export type { ConsoleEntry, SandboxGlobals, SandboxLimits, SandboxOutcome } from "./types.ts";
