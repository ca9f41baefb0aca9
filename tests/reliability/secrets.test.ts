/**
 * Issue 8, secrets: a platform base URL with plain `http://` to a host that is not loopback is
 * refused before any key is sent. The program (a server and a domain) runs against such a URL that
 * points at a listener of this machine's own non-loopback address: the run fails with the refusal,
 * naming the URL and why, and nothing reaches anything (the listener sees no connection, the
 * emulator's request log stays empty). The scenarios of the other reliability tests (fault matrix,
 * interrupted runs, drift) each check, afterwards, that the state file, everything printed and the
 * request log hold none of the API keys, the root password or a webhook secret.
 */
import { createServer, type Server } from "node:net";
import { networkInterfaces } from "node:os";
import { fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { useEngineStack } from "../support/per-file";
import { apply, baseline, leaks, plansOf, PROGRAM, run } from "../../tools/chaos/harness";

jest.setTimeout(60_000);

const project = fixtureProject("secrets");
let s: EngineStack;
let listener: Server;
let connections = 0;

/** This machine's first non-loopback IPv4 address (example.com when it has none: nothing is listening there for us to count). */
const outsideHost = (): string | undefined =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

useEngineStack((x) => (s = x), {
  before: () => project.program(PROGRAM),
  options: { projectDir: project.dir, stack: "reliability-secrets", removeProject: true },
  setup: async () => {
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((ok) => listener.listen(0, "0.0.0.0", ok));
  },
  beforeClose: () => new Promise((ok) => listener?.close(ok)),
});

test("svc:apiUrl http:// to a non-loopback host: refused before a key is sent, no request reaches anything", async () => {
  const host = outsideHost();
  const port = (listener.address() as { port: number }).port;
  const url = host ? `http://${host}:${port}/api` : "http://example.com/api";
  apply(s, project.project, { ...baseline(plansOf(s.world())), types: ["Vps", "Domain"] });
  s.config("svc:apiUrl", url);
  s.clearRequests();

  const r = await run(s, "up");
  expect(r.ok).toBe(false);
  expect(r.errors.length).toBeGreaterThan(0);
  // Each a check failure of the resource, as the CLI prints it under the resource's name.
  for (const e of r.errors) expect(e).toMatch(/^svc:(Vps srv|Domain dom): pulumi-nodejs:dynamic\/svc:(Vps resource 'srv|Domain resource 'dom)'.*refusing the plain-http platform base URL http:\/\/\S+: API keys must not travel in clear text/);
  expect(connections).toBe(0);
  expect(s.emu.control.requests()).toEqual([]);
  expect(s.state().resources.filter((x) => x.custom)).toEqual([]);
  expect(leaks(s, [r])).toEqual([]);
});
