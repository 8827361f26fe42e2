import { describe, expect, it } from "vitest";
import { pickRoute, routerBlock, routerInstruction } from "../../../server/executor/blocks/router.ts";
import { runWorkflow, validateWorkflowState } from "../../../server/executor/index.ts";
import type { Block, WorkflowState } from "../../../server/executor/types.ts";
import { useFakeProvider } from "../../helpers/fake-provider.ts";
import { chain, response, start, testDeps } from "./helpers.ts";

const fakeOf = useFakeProvider();

const routes = [
  { id: "billing", description: "Questions about invoices, payments and refunds" },
  { id: "tech_support", description: "Something is broken or does not work" },
  { id: "sales", description: "Buying, plans and prices" },
];
const params = (extra: Record<string, unknown> = {}) => ({ provider: "openai", model: "gpt-4o-mini", prompt: "<start.message>", routes, ...extra });
const router = (p: Record<string, unknown>, name = "Router", id = "router"): [string, Block] => [id, { type: "router", name, params: p }];

async function runDirect(p: Record<string, unknown>) {
  const t = testDeps({ modelProviders: fakeOf().config });
  return routerBlock.run(p, { deps: t.deps, executionId: "e", workspaceId: "ws", blockId: "router", input: {} });
}

async function run(state: WorkflowState, input: unknown) {
  const t = testDeps({ modelProviders: fakeOf().config });
  return runWorkflow({ state, input, deps: t.deps, executionId: "exec_r", workspaceId: "ws_r" });
}

describe("router block", () => {
  it("asks the model to pick one route id and selects that route's handle", async () => {
    fakeOf().script({ content: "billing", tokens: { prompt: 1_000, completion: 2 } });
    const outcome = await runDirect(params({ prompt: "I was charged twice" }));
    expect(outcome).toMatchObject({
      error: null,
      selectedHandle: "route-billing",
      output: {
        selectedRoute: "billing",
        content: "billing",
        model: "gpt-4o-mini",
        tokens: { prompt: 1_000, completion: 2, total: 1_002 },
        // gpt-4o-mini: 0.15 in / 0.60 out per 1M tokens.
        cost: { input: 0.00015, output: 0.0000012, total: 0.0001512 },
      },
      modelUsage: [{ model: "gpt-4o-mini", prompt: 1_000, completion: 2, byok: false }],
    });
    const [req] = fakeOf().requests;
    expect(req.prompt).toBe("I was charged twice");
    expect(req.system).toBe(routerInstruction(routes));
    expect(req.system).toContain("- tech_support: Something is broken or does not work");
    expect(req.system).toContain("Answer with the id of exactly one route");
  });

  it("tolerates quotes, whitespace, a trailing period and a route- prefix in the answer", async () => {
    fakeOf().script({ content: '  "Sales".\n' }, { content: "`route-tech_support`" });
    expect((await runDirect(params({ prompt: "x" }))).selectedHandle).toBe("route-sales");
    expect((await runDirect(params({ prompt: "x" }))).selectedHandle).toBe("route-tech_support");
  });

  it("fails when the answer names no route, keeping the call's usage", async () => {
    fakeOf().script({ content: "I think this is about shipping.", tokens: { prompt: 9, completion: 8 } });
    const outcome = await runDirect(params({ prompt: "Where is my parcel?" }));
    expect(outcome.error).toBe(
      'The model\'s answer names no route (expected one of billing, tech_support, sales): "I think this is about shipping."',
    );
    expect(outcome.selectedHandle).toBeUndefined();
    expect(outcome.modelUsage).toEqual([{ model: "gpt-4o-mini", prompt: 9, completion: 8, byok: false }]);
  });

  it("runs in a workflow: later blocks read the selected route, and the run counts the usage", async () => {
    fakeOf().script((req) => ({ content: req.prompt.includes("refund") ? "billing" : "sales" }));
    const state = chain(start(), router(params()), response({ data: { route: "<router.selectedRoute>", raw: "<router.content>" } }));
    const result = await run(state, { message: "I want a refund" });
    expect(result).toMatchObject({ success: true, output: { route: "billing", raw: "billing" } });
    expect(result.traceSpans[1]).toMatchObject({ type: "router", status: "success", output: { selectedRoute: "billing" } });
    expect(result.modelUsage).toMatchObject([{ model: "gpt-4o-mini", prompt: 12, completion: 7 }]);
  });

  it("follows only the chosen route's edges", async () => {
    const state: WorkflowState = {
      blocks: {
        start: { type: "start", name: "Start" },
        router: { type: "router", name: "Router", params: params() },
        pay: { type: "response", name: "Pay", params: { data: "to billing" } },
        shop: { type: "response", name: "Shop", params: { data: "to sales" } },
      },
      edges: [
        { source: "start", target: "router" },
        { source: "router", target: "pay", sourceHandle: "route-billing" },
        { source: "router", target: "shop", sourceHandle: "route-sales" },
      ],
      loops: {},
      parallels: {},
    };
    fakeOf().script({ content: "sales" }, { content: "billing" });
    const first = await run(state, { message: "How much is the pro plan?" });
    expect(first).toMatchObject({ success: true, output: "to sales" });
    expect(first.traceSpans.map((s) => s.name)).toEqual(["Start", "Router", "Shop"]);
    const second = await run(state, { message: "Refund me" });
    expect(second).toMatchObject({ success: true, output: "to billing" });
    expect(second.traceSpans.map((s) => s.name)).toEqual(["Start", "Router", "Pay"]);
  });

  it("fails the run when the model cannot be asked", async () => {
    fakeOf().script({ status: 400, error: "bad request" });
    const result = await run(chain(start(), router(params())), { message: "hi" });
    expect(result).toMatchObject({ success: false, error: 'Block "Router" failed: Provider openai answered HTTP 400 Bad Request: bad request' });
  });

  it("fails when the prompt resolves to nothing", async () => {
    const result = await run(chain(start(), router(params())), {});
    expect(result.error).toBe('Block "Router" failed: prompt is empty (a reference in it resolved to nothing)');
    expect(fakeOf().requests).toEqual([]);
  });
});

describe("pickRoute", () => {
  it("matches the whole answer exactly, then ignoring case", () => {
    expect(pickRoute("billing", routes)).toBe("billing");
    expect(pickRoute("BILLING", routes)).toBe("billing");
    expect(pickRoute("'tech_support'", routes)).toBe("tech_support");
  });

  it("takes the one route id named as a word in a longer answer", () => {
    expect(pickRoute("The best route is sales.", routes)).toBe("sales");
    expect(pickRoute("Route: route-billing", routes)).toBe("billing");
  });

  it("names nothing when no id or several ids appear", () => {
    expect(pickRoute("", routes)).toBeNull();
    expect(pickRoute("billing or sales", routes)).toBeNull();
    expect(pickRoute("salesforce", routes)).toBeNull();
  });
});

describe("router block: validation", () => {
  const issues = (p: Record<string, unknown>) => routerBlock.validate(p);

  it("accepts routes with unique, well-formed ids", () => {
    expect(issues(params())).toEqual([]);
  });

  it("requires a non-empty list of routes with unique ids of letters, digits, _ and -", () => {
    expect(issues(params({ routes: [] }))).toEqual(["routes must be a non-empty array of {id, description}"]);
    expect(issues(params({ routes: undefined }))).toEqual(["routes must be a non-empty array of {id, description}"]);
    expect(
      issues(
        params({
          routes: [
            { id: "a", description: "first" },
            { id: "a", description: "again" },
            { id: "has space", description: "x" },
            { id: "ok-1", description: "" },
            "nope",
          ],
        }),
      ),
    ).toEqual([
      'routes[1].id "a" is used by another route; route ids must be unique',
      'routes[2].id must be letters, digits, _ or - (got "has space")',
      "routes[3].description is required (it tells the model when to pick the route)",
      "routes[4].id must be letters, digits, _ or - (got null)",
      "routes[4].description is required (it tells the model when to pick the route)",
    ]);
  });

  it("checks provider, model, temperature and prompt like the agent block", () => {
    expect(issues({ provider: "x", model: " ", prompt: "", routes, temperature: 5 })).toEqual([
      'provider must be one of openai, anthropic, google (got "x")',
      "model is required (a non-empty string, e.g. gpt-4o)",
      "temperature must be a number from 0 to 2 (got 5)",
      "prompt is required",
    ]);
  });

  it("is checked when a workflow state is validated", () => {
    const state = chain(start(), router(params({ routes: [{ id: "x!", description: "d" }] })));
    expect(validateWorkflowState(state).map((i) => i.message)).toEqual(['Block "Router" (router): routes[0].id must be letters, digits, _ or - (got "x!")']);
  });
});
