// Module hook (registered by conformance_test.mjs on Node < 22): the conformance suite's
// import of 'fs' gets node20_fs_glob.mjs, which adds the globSync Node 20 lacks.
const shim = new URL('./node20_fs_glob.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const fromSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/');
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
