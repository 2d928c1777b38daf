// The official TypeScript MCP client (@modelcontextprotocol/sdk), as any TypeScript host uses it:
// connect, list the tools, call each one asked for, and print what came back (one JSON object on stdout).
//
//   node mcp_client.mjs PLAN
//
// PLAN is JSON: {"transport": "stdio", "command": "...", "args": [...], "cwd": "...", "env": {...}}
//            or {"transport": "http", "url": "http://127.0.0.1:8000/mcp"},
//   plus "calls": [{"label": "...", "name": "...", "arguments": {...}}].
//
// Client.callTool validates a result's structuredContent against the tool's listed outputSchema
// (MCP Inspector uses this same client); a result it refuses is printed as
// {"rejected": {"code": -32602, "message": "..."}} instead of {"result": ...}.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(process.argv[2]);

function transportFor(plan) {
  if (plan.transport === "stdio") {
    return new StdioClientTransport({ command: plan.command, args: plan.args ?? [], cwd: plan.cwd,
                                      env: plan.env, stderr: "inherit" });
  }
  if (plan.transport === "http") {
    return new StreamableHTTPClientTransport(new URL(plan.url));
  }
  throw new Error(`transport is stdio or http, not ${plan.transport}`);
}

const client = new Client({ name: "toolclause-test-client", version: "1.0.0" });
const out = { server: null, tools: [], calls: {} };
try {
  await client.connect(transportFor(plan));
  out.server = client.getServerVersion() ?? null;
  let cursor;
  do {  // every page: listing is what makes the client cache each tool's outputSchema validator
    const page = await client.listTools(cursor ? { cursor } : undefined);
    out.tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  for (const call of plan.calls ?? []) {
    try {
      out.calls[call.label] = { result: await client.callTool({ name: call.name, arguments: call.arguments ?? {} }) };
    } catch (error) {
      out.calls[call.label] = { rejected: { code: error?.code ?? null, message: String(error?.message ?? error) } };
    }
  }
} finally {
  await client.close();
}
process.stdout.write(JSON.stringify(out) + "\n");
