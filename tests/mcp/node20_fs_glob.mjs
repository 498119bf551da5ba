// fs with a globSync for Node < 22, which lacks it. @modelcontextprotocol/conformance 0.1.16
// imports fs.globSync at the top of its bundle but calls it only to summarise result
// folders (not in `server --scenario`), so a stub that says what is missing is enough.
export * from 'node:fs';
import fs from 'node:fs';
export default fs;
export function globSync() {
  throw new Error('fs.globSync needs Node 22 or later');
}
