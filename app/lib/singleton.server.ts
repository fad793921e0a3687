// The server entry and the Remix build each hold their own copy of app modules;
// keeping process-wide resources on globalThis gives both the same instance, and
// stops dev rebuilds from piling up connection pools.
export function singleton<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as { __chorus?: Record<string, unknown> };
  store.__chorus ??= {};
  if (!(name in store.__chorus)) store.__chorus[name] = create();
  return store.__chorus[name] as T;
}

export function dropSingleton(name: string) {
  const store = globalThis as unknown as { __chorus?: Record<string, unknown> };
  if (store.__chorus) delete store.__chorus[name];
}

/** Replaces a process-wide value (a restarted server's socket.io, in tests). */
export function setSingleton<T>(name: string, value: T) {
  const store = globalThis as unknown as { __chorus?: Record<string, unknown> };
  store.__chorus ??= {};
  store.__chorus[name] = value;
}

/** Forgets every process-wide value but those named in `keep` (a test worker's next file begins anew). */
export function dropSingletonsExcept(keep: readonly string[]) {
  const store = globalThis as unknown as { __chorus?: Record<string, unknown> };
  for (const name of Object.keys(store.__chorus ?? {})) if (!keep.includes(name)) delete store.__chorus![name];
}
