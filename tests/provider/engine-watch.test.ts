/**
 * Issue 42: no API call after the CLI is gone. The provider, inside the real dynamic-provider host,
 * exits once the engine that started it (the host's first argument) is unreachable — within 2 s —
 * and so its waits stop; loaded in-process (a test), it watches nothing (provider/engine-watch.ts).
 * Here the test is the engine: a health server as the CLI's (tools/support/provider-host.ts), closed
 * mid-create as a `kill -9` of the CLI closes it. tests/cli/interrupted-up.test.ts measures the same
 * under the real CLI.
 */
import { dynamicProviderHostEngine, ENGINE_CHECK_INTERVAL_MS, engineAddressOf } from "../../provider/engine-watch";
import { serializedProviders, startEngineHealthServer, startProviderHost, stackConfig, type ProviderHost } from "../../tools/support/provider-host";
import { startTestEmulator, type TestEmulator } from "../../tools/support/emulator";
import { running } from "../../tools/support/real-cli";
import { PASSWORD, PLAN } from "../../tools/support/world";

jest.setTimeout(90_000);

describe("where the engine is", () => {
  const HOST = "/app/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";

  test("the plugin's first argument that is not a flag, as plugin.go buildPluginArguments puts flags first (--tracing takes a value)", () => {
    expect(engineAddressOf(["127.0.0.1:4001"])).toBe("127.0.0.1:4001");
    expect(engineAddressOf(["--logtostderr", "-v=9", "--tracing", "http://t:9411", "127.0.0.1:4001"])).toBe("127.0.0.1:4001");
    expect(engineAddressOf(["--tracing=http://t:9411", "127.0.0.1:4001"])).toBe("127.0.0.1:4001");
    expect(engineAddressOf([])).toBeUndefined();
  });

  test("only in the dynamic-provider host: jest, which loads the provider in-process, is not it", () => {
    expect(dynamicProviderHostEngine(HOST, ["node", HOST, "127.0.0.1:4001"])).toBe("127.0.0.1:4001");
    expect(dynamicProviderHostEngine("C:\\p\\node_modules\\@pulumi\\pulumi\\cmd\\dynamic-provider\\index.js", ["node", "x", "127.0.0.1:4001"])).toBe("127.0.0.1:4001");
    expect(dynamicProviderHostEngine(require.main?.filename, process.argv)).toBeUndefined();
    expect(dynamicProviderHostEngine(undefined, ["node", HOST, "127.0.0.1:4001"])).toBeUndefined();
    expect(dynamicProviderHostEngine("/app/node_modules/@pulumi/pulumi/cmd/run/index.js", ["node", "x", "127.0.0.1:4001"])).toBeUndefined();
  });
});

describe("inside the dynamic-provider host", () => {
  let emu: TestEmulator;
  let engine: { address: string; close(): void };
  let host: ProviderHost;

  beforeAll(async () => {
    // Provisioning takes 60 s: the create is waiting for the server when the engine goes.
    emu = await startTestEmulator({ transitions: "time", transitionSeconds: 60 });
  });
  afterAll(async () => {
    host?.kill();
    engine?.close();
    await emu.close();
  });

  const realMs = (iso: string) => Date.parse(iso) - emu.control.state().clockOffsetMs;

  test("the engine gone during a server's create: the host exits within 2 s and makes no API call after that", async () => {
    engine = await startEngineHealthServer();
    host = await startProviderHost({ engineAddress: engine.address, env: { SVC_READ_REUSE_MS: "0" } });
    await host.configure(stackConfig({ apiUrl: emu.urls.api, emailUrl: emu.urls.email, apiKey: emu.keys.account, emailApiKey: emu.keys.email, projectId: emu.projects[0] }));
    const plans = (await emu.call("GET", "/api/vps/plans", { key: emu.keys.account })).body.data as { id: string; name: string }[];
    const args = { planId: plans.find((p) => p.name === PLAN.small)!.id, name: "watch-1", osType: "ubuntu", osVersion: "22.04", rootPassword: PASSWORD };
    const inputs = { ...args, __provider: await serializedProviders()("Vps", args) };
    const checked = await host.check("Vps", {}, inputs);
    expect(checked.failures).toEqual([]);
    const create = host.create("Vps", checked.inputs).then(
      () => "answered",
      (err: Error) => err.message,
    );
    // The create has been sent and its wait polls the server.
    const polls = () => emu.control.requests().filter((r) => r.method === "GET" && /^\/api\/vps\/[^/]+$/.test(r.path)).length;
    for (const end = Date.now() + 30_000; !(emu.control.requests().some((r) => r.method === "POST" && r.path === "/api/vps") && polls() >= 1); ) {
      if (Date.now() > end) throw new Error(`the create never started waiting: ${JSON.stringify(emu.control.requests())}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const pid = host.pid!;
    const goneAt = Date.now();
    engine.close();
    let exitedAt = 0;
    for (const end = Date.now() + 10_000; !exitedAt && Date.now() < end; await new Promise((r) => setTimeout(r, 10))) if (!running(pid)) exitedAt = Date.now();
    // Long enough for the wait's next polls, had it gone on.
    await new Promise((r) => setTimeout(r, 4_000));
    const last = Math.max(...emu.control.requests().map((r) => realMs(r.time)));
    console.log(`engine gone → provider host exited: ${exitedAt - goneAt} ms; → its last API request: ${last - goneAt} ms (checks every ${ENGINE_CHECK_INTERVAL_MS} ms)`);
    expect(exitedAt).toBeGreaterThan(0);
    expect(exitedAt - goneAt).toBeLessThan(2_000);
    expect(last - goneAt).toBeLessThan(2_000);
    // The engine saw the call fail: the host went away.
    expect(await create).toMatch(/UNAVAILABLE|Connection dropped|No connection established|exited/i);
    expect(host.stderr()).toContain(`svc: the engine that started this provider (${engine.address}) is unreachable`);
  });
});
