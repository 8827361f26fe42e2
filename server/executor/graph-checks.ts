/** Ids of blocks that sit on a cycle, one per cycle found (depth-first search, back edges). */
export function findCycles(ids: readonly string[], next: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 1 | 2>(); // 1 = on the current path, 2 = done
  const onCycle: string[] = [];
  for (const root of ids) {
    if (state.has(root)) continue;
    const stack: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    state.set(root, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const targets = next.get(top.id) ?? [];
      if (top.i >= targets.length) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      const target = targets[top.i++];
      const seen = state.get(target);
      if (seen === 1) {
        if (!onCycle.includes(target)) onCycle.push(target);
      } else if (seen === undefined) {
        state.set(target, 1);
        stack.push({ id: target, i: 0 });
      }
    }
  }
  return onCycle;
}
