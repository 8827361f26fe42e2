import { describe, expect, it } from "vitest";
import { toJsonSchemaFormat } from "../../../server/executor/providers/response-format.ts";

const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };

describe("toJsonSchemaFormat", () => {
  it("takes a bare JSON schema, as an object or as JSON text", () => {
    expect(toJsonSchemaFormat(schema)).toEqual({ name: "response", schema });
    expect(toJsonSchemaFormat(JSON.stringify(schema))).toEqual({ name: "response", schema });
  });

  it("takes OpenAI's wrappers, keeping a valid name and strict", () => {
    expect(toJsonSchemaFormat({ name: "person", schema, strict: true })).toEqual({ name: "person", schema, strict: true });
    expect(toJsonSchemaFormat({ type: "json_schema", json_schema: { name: "p", schema } })).toEqual({ name: "p", schema });
    expect(toJsonSchemaFormat({ name: "not a valid name!", schema })).toEqual({ name: "response", schema });
  });

  it("means no format when absent or blank", () => {
    expect(toJsonSchemaFormat(undefined)).toBeNull();
    expect(toJsonSchemaFormat(null)).toBeNull();
    expect(toJsonSchemaFormat("  ")).toBeNull();
  });

  it("says why anything else is not a format", () => {
    expect(toJsonSchemaFormat("{oops")).toEqual({ error: "responseFormat must be a JSON schema object (the text given is not valid JSON)" });
    expect(toJsonSchemaFormat([schema])).toEqual({ error: "responseFormat must be a JSON schema object" });
    expect(toJsonSchemaFormat(42)).toEqual({ error: "responseFormat must be a JSON schema object" });
  });
});
