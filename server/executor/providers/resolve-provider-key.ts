import type { Config } from "../../config.ts";
import type { ModelProvider } from "./types.ts";

export type ProviderKey = { key: string; byok: boolean };
export type ProviderKeyScope = { workspaceId: string; provider: ModelProvider };
export type ResolveProviderKey = (scope: ProviderKeyScope) => Promise<ProviderKey | null>;

/** The env variable holding each provider's platform key (named in "no key" errors). */
export const PROVIDER_KEY_ENV: Record<ModelProvider, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  google: "GOOGLE_API_KEY",
};

/**
 * The key a model call of `workspaceId` uses with `provider`, or null when there is none. This is the
 * single place keys are chosen: the workspace BYOK store plugs in here (its key first, `byok: true`),
 * before falling back to the installation's platform key from the environment (`byok: false`).
 */
export async function resolveProviderKey(
  scope: ProviderKeyScope,
  sources: { config: Pick<Config, "modelProviders"> },
): Promise<ProviderKey | null> {
  const key = sources.config.modelProviders[scope.provider].apiKey;
  return key ? { key, byok: false } : null;
}
