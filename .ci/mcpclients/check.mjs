// check.mjs drives tend's MCP server with an official TypeScript SDK client,
// the way a host built on it does, and fails (exit 1, one line naming the
// step) on the first thing that does not work. TestMCPOfficialClients
// (mcpclients_test.go at the repository root) runs it for each SDK, era and
// transport against a real `tend serve` and `tend mcp`.
//
//   node check.mjs --sdk v1|v2 [--era legacy|modern] --tools-out FILE --run NAME
//                  (--http URL | --stdio -- COMMAND ARGS...)
//
// The credential is TEND_TOKEN: sent as a bearer token over HTTP, passed on
// to `tend mcp` over stdio. --run names this run; what it creates carries
// the name, so runs can share one database. --tools-out receives the tools
// tools/list gave the client, as the SDK parsed them, for the Go test to
// compare with what the Go SDK received.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Ajv2020 from 'ajv/dist/2020.js';

const { values: opt, positionals } = parseArgs({
    allowPositionals: true,
    options: {
        sdk: { type: 'string' },
        era: { type: 'string', default: 'legacy' },
        http: { type: 'string' },
        stdio: { type: 'boolean', default: false },
        'tools-out': { type: 'string' },
        run: { type: 'string' }
    }
});
if (!['v1', 'v2'].includes(opt.sdk) || !['legacy', 'modern'].includes(opt.era) || !opt['tools-out'] || !opt.run ||
    !!opt.http === opt.stdio || (opt.stdio && positionals.length === 0) || (opt.era === 'modern' && opt.sdk !== 'v2')) {
    fail('usage', 'node check.mjs --sdk v1|v2 [--era legacy|modern (v2)] --tools-out FILE --run NAME (--http URL | --stdio -- COMMAND ARGS...)');
}
const token = process.env.TEND_TOKEN;
if (!token) fail('usage', 'TEND_TOKEN is not set');

let step = 'start';
function fail(where, msg) {
    console.error(`check.mjs ${opt?.sdk ?? ''} ${opt?.era ?? ''} ${opt?.http ? 'http' : 'stdio'}: ${where}: ${msg}`);
    process.exit(1);
}
function check(cond, msg) {
    if (!cond) fail(step, msg);
}

// The SDK's own validator is ajv; this one runs in 2020-12 mode, as the
// schemas declare, and strict: a keyword ajv does not know is an error.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });

async function sdk() {
    if (opt.sdk === 'v1') {
        const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
        const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
        const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
        return { Client, StreamableHTTPClientTransport, StdioClientTransport, clientOptions: {} };
    }
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const mode = opt.era === 'modern' ? { pin: '2026-07-28' } : 'legacy';
    return { Client, StreamableHTTPClientTransport, StdioClientTransport, clientOptions: { versionNegotiation: { mode } } };
}

async function main() {
    const { Client, StreamableHTTPClientTransport, StdioClientTransport, clientOptions } = await sdk();
    const client = new Client({ name: 'tend-check', version: '1.0.0' }, clientOptions);
    const transport = opt.http
        ? new StreamableHTTPClientTransport(new URL(opt.http), { requestInit: { headers: { Authorization: `Bearer ${token}` } } })
        : new StdioClientTransport({ command: positionals[0], args: positionals.slice(1), env: { ...process.env }, stderr: 'inherit' });

    step = 'initialize';
    await client.connect(transport);
    const info = client.getServerVersion();
    const caps = client.getServerCapabilities() ?? {};
    check(info?.name === 'tend', `server is ${JSON.stringify(info)}`);
    check(caps.tools && caps.resources, `capabilities ${JSON.stringify(caps)} lack tools or resources`);
    const era = client.getProtocolEra?.() ?? 'legacy';
    check(era === opt.era, `connected in the ${era} era`);

    step = 'tools/list';
    const { tools } = await client.listTools();
    check(Array.isArray(tools) && tools.length > 0, 'no tools');
    writeFileSync(opt['tools-out'], JSON.stringify(tools));
    const outputs = new Map();
    for (const tool of tools) {
        check(tool.inputSchema?.type === 'object', `${tool.name}: inputSchema is not an object schema`);
        check(tool.outputSchema?.type === 'object', `${tool.name}: no object outputSchema`);
        try {
            ajv.compile(tool.inputSchema);
            outputs.set(tool.name, ajv.compile(tool.outputSchema));
        } catch (err) {
            fail(step, `${tool.name}: a schema ajv (2020-12, strict) refuses: ${err.message}`);
        }
    }

    // A host lists only what the server advertises; the 1.x client sends the
    // request anyway and must then get "method not found", the 2.x client
    // answers an empty list itself.
    step = 'prompts/list';
    const prompts = await listOrRefused(caps.prompts, () => client.listPrompts(), 'prompts');

    step = 'resources/list';
    const { resources } = await client.listResources();
    check(resources.length > 0, 'no resources');
    for (const r of resources) {
        step = `resources/read ${r.uri}`;
        const { contents } = await client.readResource({ uri: r.uri });
        check(contents.length > 0 && contents.every(c => c.uri === r.uri && typeof c.text === 'string' && c.text.length > 0), `contents ${JSON.stringify(contents).slice(0, 200)}`);
    }
    step = 'resources/templates/list';
    const templates = await listOrRefused(caps.resources, () => client.listResourceTemplates(), 'resourceTemplates');

    const called = await callEveryTool(client, outputs);
    for (const tool of tools) {
        check(called.has(tool.name), `no valid call of ${tool.name} is planned here: add one to callEveryTool`);
    }
    await callWithInvalidArguments(client);

    step = 'close';
    await client.close();
    console.log(`check.mjs ${opt.sdk} ${opt.era} ${opt.http ? 'http' : 'stdio'}: ${tools.length} tools, ${prompts}, ` +
        `${resources.length} resources read, ${templates}, ${called.size} tools called: ok`);
}

// listOrRefused lists something the server may not offer: advertised, the
// list must come back; not advertised, the answer is an empty list or
// JSON-RPC "method not found" (-32601), as a host expects.
async function listOrRefused(advertised, list, member) {
    try {
        const res = await list();
        check(Array.isArray(res[member]), `answer without ${member}: ${JSON.stringify(res).slice(0, 200)}`);
        check(advertised || res[member].length === 0, `${member} listed but not advertised`);
        return `${res[member].length} ${member}`;
    } catch (err) {
        check(!advertised && err?.code === -32601, `refused with ${err?.code}: ${err?.message}`);
        return `${member}: method not found`;
    }
}

// call calls one tool with valid arguments: it must succeed, and its
// structuredContent must match the tool's own outputSchema.
async function call(client, outputs, called, name, args) {
    step = `tools/call ${name} ${JSON.stringify(args)}`;
    const res = await client.callTool({ name, arguments: args });
    const text = res.content?.map(c => c.text ?? '').join('') ?? '';
    check(!res.isError, `refused: ${text}`);
    check(text.length > 0, 'no text content');
    check(res.structuredContent && typeof res.structuredContent === 'object', 'no structuredContent');
    const validate = outputs.get(name);
    check(validate, 'not in tools/list');
    check(validate(res.structuredContent), `structuredContent does not match the outputSchema: ${ajv.errorsText(validate.errors)}`);
    called.add(name);
    return res.structuredContent;
}

async function callEveryTool(client, outputs) {
    const called = new Set();
    const c = (name, args) => call(client, outputs, called, name, args);
    const key = opt.run.toLowerCase().replace(/[^a-z0-9]/g, '');
    await c('service_whoami', {});
    await c('service_project', { key, title: `Checked by ${opt.run}` });
    await c('service_project', {});
    const a = (await c('service_add', { text: `Check the clients ${key} +${key} #clients` })).task;
    const b = (await c('service_add', { text: `Follow up on ${key}`, parent: a.ref, type: 'chore' })).task;
    await c('service_update', { ref: a.ref, importance: 4, description: 'Seen from a TypeScript client.' });
    await c('service_comment', { ref: a.ref, body: `Checked by ${opt.run}.` });
    await c('service_link', { ref: a.ref, other: [b.ref] });
    const d = (await c('service_document', { title: `Finding of ${key}`, body: 'Every tool answered.', type: 'finding', project: key })).document;
    await c('service_show', { ref: `#${d.ref}` });
    await c('service_show', { ref: a.ref, history: true });
    await c('service_search', { q: key });
    await c('service_list', { project: key });
    await c('service_claim', { ref: b.ref });
    await c('service_done', { ref: b.ref });
    await c('service_changes', { mine: true });
    await c('service_journal', { by: 'me' });
    await c('service_call_api', { method: 'GET', path: `/v1/tasks/${a.ref}` });
    return called;
}

// A few calls a model gets wrong: each is a tool result with isError whose
// text starts with a stable code and names what was wrong; none is a
// JSON-RPC error.
async function callWithInvalidArguments(client) {
    for (const [name, args, code, names] of [
        ['service_show', {}, /^(validation|invalid): /, 'ref'],
        ['service_add', { text: 42 }, /^(validation|invalid): /, 'text'],
        ['service_add', { txt: 'Misspelt' }, /^(validation|invalid): /, 'did you mean text?'],
        ['service_show', { ref: 'abc' }, /^(validation|invalid): /, 'ref'],
        ['service_update', { ref: 1, importance: 'high' }, /^(validation|invalid): /, 'importance'],
        ['service_claim', { ref: 999999 }, /^not_found: /, '']
    ]) {
        step = `tools/call ${name} ${JSON.stringify(args)} (invalid)`;
        const res = await client.callTool({ name, arguments: args });
        const text = res.content?.map(c => c.text ?? '').join('') ?? '';
        check(res.isError === true, `not refused: ${text.slice(0, 200)}`);
        check(code.test(text), `text does not start with the expected code: ${text.slice(0, 200)}`);
        check(text.includes(names), `text does not name ${names}: ${text.slice(0, 200)}`);
    }
}

main().catch(err => fail(step, err?.stack ?? String(err)));
