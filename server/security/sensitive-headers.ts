/** Header names whose values are credentials: never logged or traced, never carried to another origin. */
const SENSITIVE_HEADER = /auth|cookie|api[-_]?key|token|secret|password|session|credential/i;

export function isSensitiveHeader(name: string): boolean {
  return SENSITIVE_HEADER.test(name);
}
