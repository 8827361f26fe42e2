import { eq } from "drizzle-orm";
import type { AppDeps } from "../../context.ts";
import { workflowDeployments } from "../../db/schema/index.ts";
import type { WorkflowState } from "../../executor/types.ts";

const MAX_ENTRIES = 500;
/** Bound on the JSON text held, so a few huge workflows cannot take the memory. */
const MAX_TOTAL_CHARS = 64 * 1024 * 1024;

type Entry = { state: WorkflowState; size: number };

/**
 * Parsed deployment snapshots by deployment id, least recently used evicted first. Deployments are
 * immutable, so an entry never goes stale (a deleted deployment is simply never asked for again).
 * The executor receives the cached object itself and must treat it as read-only.
 */
export class DeploymentStateCache {
  private entries = new Map<string, Entry>();
  private totalChars = 0;

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly maxTotalChars = MAX_TOTAL_CHARS,
  ) {}

  get(id: string): WorkflowState | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting marks the entry most recently used.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.state;
  }

  set(id: string, stateJson: string, state: WorkflowState): void {
    const size = stateJson.length;
    if (size > this.maxTotalChars) return;
    const previous = this.entries.get(id);
    if (previous) {
      this.entries.delete(id);
      this.totalChars -= previous.size;
    }
    this.entries.set(id, { state, size });
    this.totalChars += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.totalChars <= this.maxTotalChars) break;
      this.entries.delete(oldest);
      this.totalChars -= entry.size;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

const shared = new DeploymentStateCache();

/** The deployment's state from the cache, else from the database (then cached); null if it is gone. */
export async function loadDeploymentState(
  ctx: Pick<AppDeps, "db">,
  deploymentId: string,
  cache: DeploymentStateCache = shared,
): Promise<WorkflowState | null> {
  const cached = cache.get(deploymentId);
  if (cached) return cached;
  const row = await ctx.db
    .select({ state: workflowDeployments.state })
    .from(workflowDeployments)
    .where(eq(workflowDeployments.id, deploymentId))
    .get();
  if (!row) return null;
  const state = JSON.parse(row.state) as WorkflowState;
  cache.set(deploymentId, row.state, state);
  return state;
}
