import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten";
import { notJsonMessage } from "./failure-messages.ts";

/**
 * The JSON of a result that needs no script to serialize (a primitive or null), read through the API;
 * undefined for objects and arrays.
 */
export function primitiveJson(ctx: QuickJSContext, value: QuickJSHandle): { json: string } | { error: string } | undefined {
  const type = ctx.typeof(value);
  switch (type) {
    case "undefined":
      return { json: "null" };
    case "number": {
      const n = ctx.getNumber(value);
      return { json: Number.isFinite(n) ? JSON.stringify(n) : "null" };
    }
    case "string":
      // One longer than the output cap is refused by the caller's byte count.
      return { json: JSON.stringify(ctx.getString(value)) };
    case "boolean":
      return { json: ctx.sameValue(value, ctx.true) ? "true" : "false" };
    case "function":
    case "symbol":
    case "bigint":
      return { error: notJsonMessage(type, "") };
  }
  return ctx.sameValue(value, ctx.null) ? { json: "null" } : undefined;
}
