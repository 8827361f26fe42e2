/** One server-sent event; `data` is sent as one line of JSON, so it never breaks the framing. */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const MAX_PIECE_CHARS = 256;

/**
 * The answer cut into pieces of a word (with the whitespace after it) each, a long word in pieces of
 * at most MAX_PIECE_CHARS; joined they give back the answer exactly.
 */
export function splitAnswer(answer: string): string[] {
  const pieces: string[] = [];
  for (const word of answer.match(/\s*\S+\s*|\s+/g) ?? []) {
    for (let i = 0; i < word.length; i += MAX_PIECE_CHARS) pieces.push(word.slice(i, i + MAX_PIECE_CHARS));
  }
  return pieces;
}
