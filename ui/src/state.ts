// The page state lives in the URL hash (#run=...&tool=...&host=...), so reloads, the back
// button and shared links keep the selection.

export interface HashState {
  run: string;
  tool: string;
  host: string;
  // Page-specific extras (e.g. include_idle=1 on framework op stats).
  extra: Record<string, string>;
}

const KNOWN = new Set(['run', 'tool', 'host']);

export function readHash(): HashState {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const extra: Record<string, string> = {};
  params.forEach((value, key) => {
    if (!KNOWN.has(key)) extra[key] = value;
  });
  return { run: params.get('run') ?? '', tool: params.get('tool') ?? '', host: params.get('host') ?? '', extra };
}

export function hashFor(state: HashState): string {
  const params = new URLSearchParams();
  if (state.run) params.set('run', state.run);
  if (state.tool) params.set('tool', state.tool);
  if (state.host) params.set('host', state.host);
  for (const [key, value] of Object.entries(state.extra)) params.set(key, value);
  return `#${params.toString()}`;
}

export function writeHash(state: HashState, replace = false): void {
  const hash = hashFor(state);
  if (hash === window.location.hash) return;
  if (replace) {
    history.replaceState(null, '', hash);
  } else {
    history.pushState(null, '', hash);
  }
}
