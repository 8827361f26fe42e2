import type { ReferenceMatch } from "../references.ts";
import { type Lookup, type ReferenceResolver, walkPath } from "../template.ts";
import type { Scope } from "./scope.ts";
import type { Topology } from "./topology.ts";

/** Where a planned node (block or section) sits: its graph ("" = top level) and index there. */
export type NodePosition = { graph: string; index: number };

export type ResolverContext = {
  topology: Topology;
  positions: ReadonlyMap<string, NodePosition>;
  /** Reference name (normalized) -> block or section id. */
  targets: ReadonlyMap<string, string>;
};

const never: Lookup = () => undefined;

/**
 * The resolver for references written in one graph. A reference to a node of the same graph reads
 * the current scope; to an enclosing graph, climbs scopes; into a section, descends into its last
 * iteration (or merged branches). The way is computed here, once, so a lookup is a few steps.
 */
export function resolverFor(graphId: string, ctx: ResolverContext): ReferenceResolver {
  const here = graphChain(graphId, ctx.topology);
  const frameUp = (kind: "loop" | "parallel"): number => {
    for (let k = here.length - 1; k >= 0; k--) if (ctx.topology.containers.get(here[k])?.kind === kind) return here.length - 1 - k;
    return -1;
  };
  const loopUp = frameUp("loop");
  const parallelUp = frameUp("parallel");

  const nodeLookup = (id: string, path: readonly string[]): Lookup => {
    const at = ctx.positions.get(id);
    if (at === undefined) return never; // not reachable from the start block: never runs
    const there = graphChain(at.graph, ctx.topology);
    let common = 0;
    while (common < here.length && common < there.length && here[common] === there[common]) common++;
    const up = here.length - common;
    const down = there.slice(common).map((c) => (ctx.positions.get(c) as NodePosition).index);
    const slot = at.index;
    if (up === 0 && down.length === 0) return path.length === 0 ? (s) => s.values[slot] : (s) => walkPath(s.values[slot], path);
    return (s) => {
      let scope: Scope | undefined = s;
      for (let k = 0; k < up; k++) scope = (scope as Scope).parent as Scope;
      for (const index of down) {
        scope = scope?.inner?.[index];
        if (scope === undefined) return undefined;
      }
      return walkPath((scope as Scope).values[slot], path);
    };
  };
  const frameLookup = (up: number, path: readonly string[]): Lookup => {
    if (up < 0) return never;
    return (s) => {
      let scope = s;
      for (let k = 0; k < up; k++) scope = scope.parent as Scope;
      return walkPath(scope.frame, path);
    };
  };

  return {
    lookup(match: ReferenceMatch): Lookup | null {
      const { name, path } = match;
      if (name === "variable") return (s) => (path.length === 0 ? { ...s.run.variables } : walkPath(s.run.variables, path));
      if (name === "loop") return frameLookup(loopUp, path);
      if (name === "parallel") return frameLookup(parallelUp, path);
      const target = ctx.targets.get(name);
      if (target === undefined) return match.hasPath ? never : null;
      return nodeLookup(target, path);
    },
    codeGlobals(s: Scope): Record<string, unknown> {
      const globals: Record<string, unknown> = { input: s.run.input, variable: s.run.variables };
      if (loopUp >= 0) globals.loop = frameLookup(loopUp, [])(s);
      if (parallelUp >= 0) globals.parallel = frameLookup(parallelUp, [])(s);
      return globals;
    },
  };
}

/** The sections a graph's scope sits in, outermost first, the graph's own section last. */
export function graphChain(graphId: string, topology: Topology): readonly string[] {
  return graphId === "" ? [] : [...topology.chainOf(graphId), graphId];
}
