// JavaScript evaluated inside each fresh context. QuickJS parses at about 0.1 µs per character, so
// what every run needs is set up through the API instead (see sandbox-session.ts), and helpers only
// some runs need (console formatting, results that are objects, error descriptions) are evaluated on
// first use.

/** File name of the helpers; QuickJS names code built by `new AsyncFunction` "<input>". */
export const BOOTSTRAP_FILE_NAME = "sandbox-bootstrap.js";

/** Lines QuickJS' Function constructor puts before the body: `(async function anonymous(\n) {\n`. */
export const FUNCTION_BODY_LINE_OFFSET = 2;

/** What `finish` returns when the JSON is longer than allowed. */
export const FINISH_TOO_LARGE = 0;
/** What `finish` returns when the value contains a cycle. */
export const FINISH_CIRCULAR = 1;

/** Evaluates to the AsyncFunction constructor: it compiles a run's code as the body of an async function. */
export const ASYNC_FUNCTION_SOURCE = "(async function () {}).constructor";

/**
 * `(stringify) => finish(value, maxChars)` for object results. It returns the JSON; 0 when the JSON
 * is longer than maxChars; 1 for a cycle; or [type, key] for the first function, symbol or BigInt
 * (which JSON would silently drop or refuse). Primitive results never get here. Kept terse: every
 * function and statement adds parse time to each run that returns an object.
 */
export const FINISH_SOURCE = String.raw`(function (stringify) {
  var found;
  function replacer(key, v) {
    var t = typeof v;
    if (t === "function" || t === "symbol" || t === "bigint") throw (found = [t, key]);
    return v;
  }
  return function (value, maxChars) {
    var json;
    try { json = stringify(value, replacer); } catch (e) {
      if (e === found) return e;
      if (e instanceof TypeError && e.message === "circular reference") return ${FINISH_CIRCULAR};
      throw e;
    }
    return json === undefined ? "null" : json.length > maxChars ? ${FINISH_TOO_LARGE} : json;
  };
})`;

/** `(maxLineChars) => format(...args)`: one console line from a call's arguments, like Node prints them. */
export const FORMAT_SOURCE = String.raw`(function (maxLineChars) {
  "use strict";
  function formatArg(v) {
    switch (typeof v) {
      case "string": return v;
      case "number": return Object.is(v, -0) ? "-0" : "" + v;
      case "bigint": return v + "n";
      case "symbol": return v.toString();
      case "function": return "[Function: " + (v.name || "(anonymous)") + "]";
      case "object":
        if (v === null) return "null";
        if (v instanceof Error) return v.name + ": " + v.message;
        try {
          const json = JSON.stringify(v);
          return json === undefined ? "" + v : json;
        } catch (e) {
          return "[Unserializable: " + (e instanceof Error ? e.message : "error") + "]";
        }
    }
    return "" + v;
  }
  return function () {
    const args = arguments;
    let line = "";
    for (let i = 0; i < args.length && line.length <= maxLineChars; i++) line += (i > 0 ? " " : "") + formatArg(args[i]);
    return line.length > maxLineChars ? line.slice(0, maxLineChars) + "... (line truncated)" : line;
  };
})`;

/** `(lineOffset, lineCount) => describe(error)`: "<Name>: <message> (line N)" for a thrown value. */
export const DESCRIBE_SOURCE = String.raw`(function (lineOffset, lineCount) {
  "use strict";
  function lineOf(e) {
    let line;
    if (e.fileName === "<input>" && typeof e.lineNumber === "number") line = e.lineNumber;
    else if (typeof e.stack === "string") {
      const m = /<input>:(\d+)/.exec(e.stack);
      if (m) line = +m[1];
    }
    if (line === undefined) return undefined;
    line -= lineOffset;
    // A missing brace is reported on the closing line QuickJS adds after the body.
    return line < 1 ? undefined : line > lineCount ? lineCount : line;
  }
  return (e) => {
    try {
      if (e !== null && typeof e === "object" && (e instanceof Error || typeof e.message === "string")) {
        const name = typeof e.name === "string" && e.name ? e.name : "Error";
        const line = lineOf(e);
        return name + ": " + e.message + (line === undefined ? "" : " (line " + line + ")");
      }
      if (typeof e === "string") return "Error: " + e;
      const json = JSON.stringify(e);
      return "Error: " + (json === undefined ? String(e) : json);
    } catch (inner) {
      return "Error: (the thrown value could not be read)";
    }
  };
})`;
