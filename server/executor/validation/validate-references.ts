import { normalizeBlockName } from "../block-names.ts";
import type { ContainerInfo, Topology } from "../engine/topology.ts";
import { findReferences, forEachString, type ReferenceMatch } from "../references.ts";
import type { ValidationIssue } from "../types.ts";
import { containerLabel, isRecord } from "./labels.ts";

/** The values `<loop.x>` and `<parallel.x>` can read. */
export const FRAME_KEYS = { loop: ["index", "item", "items"], parallel: ["index", "currentItem", "items"] } as const;

type Input = {
  blocks: ReadonlyMap<string, Record<string, unknown>>;
  /** Normalized names of blocks (and `start`) -> block id. */
  names: ReadonlyMap<string, string>;
  containers: ReadonlyMap<string, ContainerInfo>;
  /** null when the sections' members are invalid: then `<loop.x>` placement is not checked. */
  topology: Topology | null;
  label(id: string): string;
};

/**
 * Checks every reference of block params and section settings: `<name.path>` must name a block or
 * section, `<variable.x>` a variable some variables block sets, and `<loop.x>` / `<parallel.x>` may
 * only be used inside a loop / parallel, with one of the keys they offer.
 */
export function validateReferences({ blocks, names, containers, topology, label }: Input): ValidationIssue[] {
  const known = new Set(names.keys());
  for (const id of containers.keys()) known.add(normalizeBlockName(id));
  const variables = new Set<string>();
  for (const block of blocks.values()) {
    if (block.type === "variables" && isRecord(block.params) && isRecord(block.params.variables)) {
      for (const key of Object.keys(block.params.variables)) variables.add(key);
    }
  }
  const issues: ValidationIssue[] = [];
  const check = (value: unknown, chain: readonly string[], who: string, blockId?: string) => {
    const found = new Set<string>();
    forEachString(value, (text) => {
      for (const ref of findReferences(text)) {
        const message = referenceProblem(ref, chain);
        if (message !== null) found.add(message);
      }
    });
    for (const message of found) issues.push({ blockId, message: `${who} ${message}` });
  };
  const referenceProblem = (ref: ReferenceMatch, chain: readonly string[]): string | null => {
    if (ref.name === "variable") {
      if (ref.hasPath && !variables.has(ref.path[0])) return `references <variable.${ref.path[0]}>, but no variables block sets "${ref.path[0]}"`;
      return null;
    }
    if (ref.name === "loop" || ref.name === "parallel") {
      const kind = ref.name;
      if (topology !== null && !chain.some((id) => containers.get(id)?.kind === kind)) return `uses <${kind}...> outside a ${kind}`;
      const keys: readonly string[] = FRAME_KEYS[kind];
      if (ref.hasPath && !keys.includes(ref.path[0])) {
        return `uses <${kind}.${ref.path[0]}>, which is not a ${kind} value (use ${keys.map((k) => `<${kind}.${k}>`).join(", ")})`;
      }
      return null;
    }
    if (ref.hasPath && !known.has(ref.name)) return `references <${ref.name}...>, but no block is named "${ref.name}"`;
    return null;
  };

  const chainOf = (id: string) => topology?.chainOf(id) ?? [];
  for (const [id, block] of blocks) check(isRecord(block.params) ? block.params : {}, chainOf(id), label(id), id);
  for (const c of containers.values()) {
    const outer = chainOf(c.id);
    const who = containerLabel(c.kind, c.id);
    const { condition, nodes: _nodes, ...settings } = c.spec;
    check(settings, outer, who);
    // A loop's condition is checked with each iteration: it sees the loop's own values.
    if (condition !== undefined) check(condition, [...outer, c.id], who);
  }
  return issues;
}
