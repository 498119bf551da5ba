// The MCP conformance suite tests servers over Streamable HTTP only (`conformance server
// --url`); stepscope mcp speaks stdio. This bridge is the SDK's own Streamable HTTP server
// transport in front of the SDK's stdio client transport: each HTTP session (one
// initialize) spawns its own `stepscope mcp LOGDIR` and every JSON-RPC message is passed
// through unchanged, so what the suite checks at the MCP level (the messages and their
// answers) is stepscope's, and the HTTP framing is the SDK's.
import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// Starts the bridge on a loopback port; resolves to { url, close, sessions }.
export async function startBridge(bin, logdir) {
  const sessions = new Map();  // session id -> { http, stdio }
  const children = [];
  let spawned = 0;

  async function newSession() {
    const stdio = new StdioClientTransport({ command: bin, args: ['mcp', logdir], stderr: 'ignore' });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    transport.onmessage = (message) => stdio.send(message);
    stdio.onmessage = (message) => transport.send(message);
    transport.onclose = () => stdio.close();
    await stdio.start();
    await transport.start();
    children.push(stdio);
    ++spawned;
    return transport;
  }

  const server = http.createServer(async (req, res) => {
    try {
      const id = req.headers['mcp-session-id'];
      let transport = id ? sessions.get(id) : undefined;
      if (id && !transport) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      if (!transport) transport = await newSession();
      await transport.handleRequest(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    spawned: () => spawned,
    close: async () => {
      for (const child of children) await child.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
