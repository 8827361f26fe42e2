import { describe, expect, it } from "vitest";
import { BLOCK_TYPES, normalizeBlockName, validateWorkflowState } from "../../../server/executor/index.ts";
import type { WorkflowState } from "../../../server/executor/types.ts";
import { api, chain, response, start } from "./helpers.ts";

const messages = (state: unknown) => validateWorkflowState(state).map((i) => i.message);
const valid = () => chain(start(), api({ url: "https://example.com/items/{id}", pathParams: { id: "<start.id>" } }), response({ data: "<api.data>" }));

describe("validateWorkflowState", () => {
  it("accepts a valid state, with or without loops and parallels", () => {
    expect(validateWorkflowState(valid())).toEqual([]);
    const { loops: _l, parallels: _p, ...bare } = valid();
    expect(validateWorkflowState(bare)).toEqual([]);
  });

  it("exports the block types and the name normalization", () => {
    expect(BLOCK_TYPES).toEqual(expect.arrayContaining(["start", "api", "response", "function", "condition", "variables", "wait"]));
    expect(normalizeBlockName("  My  API\tCall ")).toBe("myapicall");
  });

  it("checks the shape", () => {
    expect(messages(null)).toEqual(["The workflow state must be an object {blocks, edges, loops, parallels}"]);
    expect(messages({ blocks: [], edges: {} })).toEqual(["blocks must be an object keyed by block id", "edges must be an array"]);
    expect(messages({ blocks: {}, edges: [], loops: [] })).toEqual(["loops must be an object"]);
  });

  it("checks that loops and parallels are objects of sections", () => {
    const state = { ...valid(), loops: { loop1: 5 }, parallels: { par1: [] } };
    expect(messages(state)).toEqual([
      'Loop "loop1" must be an object {nodes, loopType, ...}',
      'Parallel "par1" must be an object {nodes, parallelType, ...}',
    ]);
  });

  it("reports an unknown block type, naming the block", () => {
    const state = valid();
    state.blocks.x = { type: "teleport", name: "Beam Me" };
    expect(validateWorkflowState(state)).toEqual([
      { blockId: "x", message: `Block "Beam Me" (x) has unknown type "teleport" (supported: ${BLOCK_TYPES.join(", ")})` },
    ]);
  });

  it("reports blocks that are not objects or lack a name", () => {
    const state = valid() as unknown as { blocks: Record<string, unknown> };
    state.blocks.a = "nope";
    state.blocks.b = { type: "response", name: "  " };
    expect(messages(state)).toEqual(["Block a must be an object {type, name, params?, enabled?}", "Block b needs a name (a non-blank string)"]);
  });

  it("reports edges to or from a missing block, naming the edge and the block", () => {
    const state = valid();
    state.edges.push({ id: "e9", source: "api", target: "ghost" }, { source: "nobody", target: "api" });
    expect(messages(state)).toEqual(["Edge \"e9\" (api -> ghost): its target block ghost does not exist", "Edge #4 (nobody -> api): its source block nobody does not exist"]);
  });

  it("reports a cycle, naming a block on it", () => {
    const state = chain(start(), api({ url: "https://a.example" }, "A", "a"), api({ url: "https://b.example" }, "B", "b"));
    state.edges.push({ source: "b", target: "a" });
    expect(validateWorkflowState(state)).toEqual([{ blockId: "a", message: 'Block "A" (a) is on a cycle; edges must not form cycles (repeat blocks with a loop instead)' }]);
    const self = chain(start(), api({ url: "https://a.example" }, "A", "a"));
    self.edges.push({ source: "a", target: "a" });
    expect(messages(self)).toEqual(['Block "A" (a) is on a cycle; edges must not form cycles (repeat blocks with a loop instead)']);
  });

  it("requires exactly one start block, enabled and without incoming edges", () => {
    expect(messages(chain(response({})))).toEqual(["The workflow needs exactly one start block (found none)"]);
    const two = chain(start(), ["start2", { type: "start", name: "Other Start" }]);
    expect(messages(two)).toEqual(['The workflow needs exactly one start block (found Block "Start" (start), Block "Other Start" (start2))']);
    const disabled = chain(start());
    disabled.blocks.start.enabled = false;
    expect(messages(disabled)).toEqual(['Block "Start" (start): the start block cannot be disabled']);
    const incoming = chain(start(), response({}));
    incoming.edges.push({ id: "back", source: "response", target: "start" });
    expect(messages(incoming)).toContain("Edge \"back\" (response -> start): the start block cannot have incoming edges");
  });

  it("reports duplicate reference names and the reserved name start", () => {
    const state = chain(start(), api({ url: "https://a.example" }, "My API", "a"), api({ url: "https://b.example" }, "my api", "b"));
    state.blocks.c = { type: "response", name: "Start" };
    expect(messages(state)).toEqual([
      'Block "my api" (b) has the same reference name "myapi" as Block "My API" (a); rename one of them',
      'Block "Start" (c) has the same reference name "start" as Block "Start" (start); rename one of them',
      'Block "Start" (c): the name "start" is reserved for the start block',
    ]);
  });

  it("reports references to a block name that does not exist, naming the referring block", () => {
    const state = chain(start(), response({ data: { a: ["<nosuch.data>", "x <other block.y> <div>"] } }));
    expect(validateWorkflowState(state)).toEqual([
      { blockId: "response", message: 'Block "Response" (response) references <nosuch...>, but no block is named "nosuch"' },
      { blockId: "response", message: 'Block "Response" (response) references <otherblock...>, but no block is named "otherblock"' },
    ]);
  });

  it("lets <start.x> name the start block whatever it is called", () => {
    const state: WorkflowState = {
      blocks: { t: { type: "start", name: "Trigger" }, r: { type: "response", name: "R", params: { data: ["<start.a>", "<trigger.a>"] } } },
      edges: [{ source: "t", target: "r" }],
      loops: {},
      parallels: {},
    };
    expect(validateWorkflowState(state)).toEqual([]);
  });

  it("accepts error edges on any block, and rejects handles a block does not have", () => {
    const state = valid();
    state.edges[1].sourceHandle = "error";
    expect(messages(state)).toEqual([]);
    state.edges[1].sourceHandle = "failure";
    expect(messages(state)).toEqual([
      'Edge "e2" (api -> response): Block "API" (api) has no branch "failure" (edge handles: error, condition-<id> on condition blocks, route-<id> on router blocks)',
    ]);
  });

  it("validates api params", () => {
    const bad = {
      url: "ftp://example.com",
      method: "TRACE",
      retries: 11,
      timeoutMs: 0,
      query: "a=1",
      headers: [{ key: "bad header", value: "x" }, { value: "no key" }],
      pathParams: 5,
      retryNonIdempotent: "yes",
      continueOnError: 1,
    };
    const state = chain(start(), api(bad, "Call"));
    expect(messages(state)).toEqual([
      'Block "Call" (api): url "ftp://example.com" is not a valid http(s) URL',
      'Block "Call" (api): method must be one of GET, POST, PUT, DELETE, PATCH (got "TRACE")',
      'Block "Call" (api): pathParams must be an object map or an array of {key, value} rows',
      'Block "Call" (api): query must be an object map or an array of {key, value} rows',
      'Block "Call" (api): headers[1] must be an object {key, value} with a string key',
      'Block "Call" (api): headers: "bad header" is not a valid header name',
      'Block "Call" (api): retries must be an integer from 0 to 10 (got 11)',
      'Block "Call" (api): timeoutMs must be an integer from 1 to 300000 (got 0)',
      'Block "Call" (api): retryNonIdempotent must be true or false (got "yes")',
      'Block "Call" (api): continueOnError must be true or false (got 1)',
    ]);
    expect(messages(chain(start(), api({ url: 12 })))).toEqual(['Block "API" (api): url is required (a non-empty string)']);
    expect(messages(chain(start(), api({ url: "<start.url>", retries: 2.5, timeoutMs: 300_001 })))).toEqual([
      'Block "API" (api): retries must be an integer from 0 to 10 (got 2.5)',
      'Block "API" (api): timeoutMs must be an integer from 1 to 300000 (got 300001)',
    ]);
  });

  it("validates response params", () => {
    const state = chain(start(), response({ status: 700, headers: { "x y": "1" } }));
    expect(messages(state)).toEqual([
      'Block "Response" (response): status must be an integer from 100 to 599 or a <block.path> reference (got 700)',
      'Block "Response" (response): headers: "x y" is not a valid header name',
    ]);
    expect(messages(chain(start(), response({ status: "201" })))).toHaveLength(1);
    expect(messages(chain(start(), response({ status: "<start.code>" })))).toEqual([]);
  });

  it("reports params and enabled of the wrong type", () => {
    const state = valid() as unknown as { blocks: Record<string, Record<string, unknown>> };
    state.blocks.api.params = [1];
    state.blocks.response.enabled = "no";
    expect(messages(state)).toEqual([
      'Block "API" (api): params must be an object',
      'Block "Response" (response): enabled must be true or false',
      'Block "API" (api): url is required (a non-empty string)',
    ]);
  });
});
