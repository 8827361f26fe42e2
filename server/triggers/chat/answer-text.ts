/**
 * The chat answer from a run's output (the response block's data, else the last block's output):
 * the output if it is a string, else its `content` if that is a string (an agent block's answer),
 * else the output as JSON; no output is the empty string.
 */
export function answerText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output === null || output === undefined) return "";
  if (typeof output === "object" && typeof (output as { content?: unknown }).content === "string") {
    return (output as { content: string }).content;
  }
  return JSON.stringify(output) ?? "";
}
