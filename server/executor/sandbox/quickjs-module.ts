import { newQuickJSWASMModule, newVariant, type QuickJSWASMModule, RELEASE_SYNC } from "quickjs-emscripten";

const MIB = 1024 * 1024;
const WASM_PAGE_BYTES = 64 * 1024;
/** The module's static data and its fixed C stack (measured: about 7 MiB) come out of the same memory. */
const MODULE_OVERHEAD_BYTES = 8 * MIB;
/** The compiled module declares 16 MiB as the least memory it can be given. */
const MODULE_MIN_BYTES = 16 * MIB;
/** Modules kept for distinct memory limits (nearly every run uses the default one). */
const MAX_CACHED_MODULES = 4;

type Entry = { loading: Promise<QuickJSWASMModule>; module?: QuickJSWASMModule };
const cache = new Map<number, Entry>();

/**
 * The WebAssembly module for runs with this memory limit, compiled once per sandbox thread and reused
 * by every run on it (each run creates its own runtime in it).
 *
 * QuickJS' own limit (runtime.setMemoryLimit) only bounds single allocations in this build: it cannot
 * measure freed blocks, so it counts 8 bytes per allocation. The real bound is the module's linear
 * memory, created here with a fixed size (limit + module overhead) and no room to grow; runs use a
 * module one at a time, and each frees everything it allocated.
 */
export function loadSandboxModule(memoryBytes: number): Promise<QuickJSWASMModule> {
  const pages = Math.ceil(Math.max(MODULE_MIN_BYTES, memoryBytes + MODULE_OVERHEAD_BYTES) / WASM_PAGE_BYTES);
  const cached = cache.get(pages);
  if (cached) {
    // Most recently used last, so eviction drops the least recently used.
    cache.delete(pages);
    cache.set(pages, cached);
    return cached.loading;
  }
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  const entry: Entry = { loading: newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory })) };
  cache.set(pages, entry);
  entry.loading.then(
    (module) => {
      entry.module = module;
    },
    // A failed load must not stick: the next run tries again.
    () => {
      if (cache.get(pages) === entry) cache.delete(pages);
    },
  );
  for (const key of cache.keys()) {
    if (cache.size <= MAX_CACHED_MODULES) break;
    cache.delete(key);
  }
  return entry.loading;
}

/**
 * Forgets a module whose state can no longer be trusted (the host stack ran out while it was
 * mid-call); the next run with its memory size compiles a fresh one.
 */
export function discardSandboxModule(module: QuickJSWASMModule): void {
  for (const [pages, entry] of cache) {
    if (entry.module === module) cache.delete(pages);
  }
}
