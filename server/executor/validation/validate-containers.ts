import { normalizeBlockName } from "../block-names.ts";
import type { ContainerInfo, ContainerKind } from "../engine/topology.ts";
import type { ValidationIssue } from "../types.ts";
import { containerLabel, isRecord } from "./labels.ts";
import { loopSettingIssues, parallelSettingIssues } from "./section-params.ts";

/** Reference names with a meaning of their own: no block or section may take them. */
export const RESERVED_NAMES = new Set(["start", "variable", "loop", "parallel"]);

export type ContainerCheck = {
  issues: ValidationIssue[];
  containers: Map<string, ContainerInfo>;
  /** Every section lists existing nodes, each node has at most one section, and no section holds itself. */
  membershipOk: boolean;
};

type Input = {
  loops: Record<string, unknown>;
  parallels: Record<string, unknown>;
  blocks: ReadonlyMap<string, Record<string, unknown>>;
  /** Normalized block name -> block id. */
  names: ReadonlyMap<string, string>;
  startId: string | undefined;
  label(id: string): string;
};

/** Checks loops and parallels: their ids, settings and members (`nodes`). */
export function validateContainers({ loops, parallels, blocks, names, startId, label }: Input): ContainerCheck {
  const issues: ValidationIssue[] = [];
  const containers = new Map<string, ContainerInfo>();
  const sectionNames = new Map<string, string>(); // normalized id -> id
  let membershipOk = true;

  const sections: Array<[ContainerKind, string, unknown]> = [
    ...Object.entries(loops).map(([id, spec]): [ContainerKind, string, unknown] => ["loop", id, spec]),
    ...Object.entries(parallels).map(([id, spec]): [ContainerKind, string, unknown] => ["parallel", id, spec]),
  ];
  for (const [kind, id, spec] of sections) {
    const name = containerLabel(kind, id);
    if (!isRecord(spec)) {
      issues.push({ message: `${name} must be an object {nodes, ${kind === "loop" ? "loopType" : "parallelType"}, ...}` });
      membershipOk = false;
      continue;
    }
    const key = normalizeBlockName(id);
    if (blocks.has(id)) issues.push({ message: `${name}: its id is also a block id; use another id` });
    if (RESERVED_NAMES.has(key)) issues.push({ message: `${name}: the id "${key}" is reserved` });
    else if (names.has(key)) {
      const blockId = names.get(key) as string;
      issues.push({ message: `${name}: its id is also the reference name of ${label(blockId)}; rename one of them` });
    }
    const other = sectionNames.get(key);
    if (other !== undefined) {
      issues.push({ message: `${name} has the same reference name "${key}" as ${describe(other)}; rename one of them` });
      if (other === id) membershipOk = false; // a loop and a parallel with one id: members are ambiguous
    } else sectionNames.set(key, id);

    const settingIssues = kind === "loop" ? loopSettingIssues(spec) : parallelSettingIssues(spec);
    for (const message of settingIssues) issues.push({ message: `${name}: ${message}` });

    const nodes = spec.nodes;
    if (!Array.isArray(nodes) || nodes.length === 0 || !nodes.every((n) => typeof n === "string")) {
      issues.push({ message: `${name}: nodes must be a non-empty array of block, loop or parallel ids` });
      membershipOk = false;
      continue;
    }
    // A section sharing a block's id makes `nodes` ambiguous: its members are not checked.
    if (blocks.has(id)) membershipOk = false;
    else if (!containers.has(id)) containers.set(id, { id, kind, nodes: nodes as string[], spec });
  }

  function describe(id: string): string {
    if (blocks.has(id) && !containers.has(id)) return label(id);
    const c = containers.get(id);
    return c ? containerLabel(c.kind, id) : Object.hasOwn(loops, id) ? containerLabel("loop", id) : containerLabel("parallel", id);
  }

  const parentOf = new Map<string, string>();
  for (const c of containers.values()) {
    const name = containerLabel(c.kind, c.id);
    const seen = new Set<string>();
    for (const member of c.nodes) {
      if (seen.has(member)) {
        issues.push({ message: `${name} lists node "${member}" twice` });
        continue;
      }
      seen.add(member);
      if (member === c.id) {
        issues.push({ message: `${name} cannot contain itself` });
        membershipOk = false;
        continue;
      }
      const isBlock = blocks.has(member);
      if (!isBlock && !containers.has(member)) {
        issues.push({ message: `${name}: node "${member}" is not a block, loop or parallel` });
        membershipOk = false;
        continue;
      }
      if (member === startId) {
        issues.push({ blockId: member, message: `${name}: the start block cannot be inside a loop or parallel` });
        membershipOk = false;
      }
      const other = parentOf.get(member);
      if (other !== undefined) {
        const otherInfo = containers.get(other) as ContainerInfo;
        issues.push({
          blockId: isBlock ? member : undefined,
          message: `${describe(member)} is in both ${containerLabel(otherInfo.kind, other)} and ${name}; a node belongs to one loop or parallel`,
        });
        membershipOk = false;
      } else parentOf.set(member, c.id);
    }
  }

  // A section inside itself (through other sections) would never start.
  for (const c of containers.values()) {
    const path: string[] = [];
    for (let at = parentOf.get(c.id); at !== undefined && path.length <= containers.size; at = parentOf.get(at)) {
      if (at === c.id) {
        issues.push({ message: `${containerLabel(c.kind, c.id)} is inside itself (through ${path.map(describe).join(", ")})` });
        membershipOk = false;
        break;
      }
      path.push(at);
    }
  }
  return { issues, containers, membershipOk };
}
