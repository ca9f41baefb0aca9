/**
 * The corpus (./corpus.ts), programs of two stacks in one file backend on one account (one
 * emulator): a network stack whose servers and domain an app stack consumes through a
 * `StackReference`, and resources moved between stacks with `pulumi state move`. Each `up` judged
 * (a) preview pass = up, (b) both states together = the platform, (c) the next previews empty.
 */
import { startTestEmulator } from "../../../tools/support/emulator";
import { liveServers, serverRecords } from "../../../tools/support/world";
import { calls } from "../../../tools/support/engine-harness";
import { changeList, emptyPreview, idOf, judgedUp, operation, PASSWORD, platformMatches, program, reportOperations, sharedBackend, smallPlan, stateMove, urnOf, withProgram, worldView, type CorpusProgram } from "./corpus";

afterAll(() => reportOperations("stacks"));

const DOMAIN = "corpus-shop.com";

const network = (edge2Name: string) => `
// The network team's stack: the edge servers and the registered domain, exported for the app stacks.
const edges = [
  new svc.Vps("edge-1", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") }),
  new svc.Vps("edge-2", { name: ${JSON.stringify(edge2Name)}, planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") }),
];
const domain = new svc.Domain("site", { name: config.require("domain") });

export const edgeIds = edges.map((e) => e.id);
export const domainName = domain.id;
`;

const app = `
// The app team's stack: its firewall rules on the network stack's servers, its mail on the network's domain.
const networkStack = new pulumi.StackReference(config.require("networkStack"));
const edgeIds = networkStack.requireOutput("edgeIds") as pulumi.Output<string[]>;
const domainName = networkStack.requireOutput("domainName") as pulumi.Output<string>;

for (const i of [0, 1]) {
  new svc.VpsFirewallRule(\`edge-\${i + 1}-https\`, { vpsId: edgeIds.apply((ids) => ids[i]), protocol: "tcp", action: "allow", port: "443", source: "0.0.0.0/0" });
}
const mail = new svc.SendingDomain("mail", { domain: pulumi.interpolate\`mail.\${domainName}\` });

export const mailDomainId = mail.domainId;
`;

/** Both stacks' previews, side by side: neither plans anything. */
const bothEmpty = (label: string, a: CorpusProgram, b: CorpusProgram) => Promise.all([emptyPreview(a, label), emptyPreview(b, label)]);

program("a StackReference: the app stack's rules on the network stack's servers, its mail on its domain; a server the network replaces moves the app's rule", async () => {
  const emulator = await startTestEmulator({ transitions: "immediate" });
  const backend = sharedBackend();
  try {
    await withProgram("network", { code: network("edge-two"), stack: "net", emulator, backendDir: backend.dir, config: (w) => ({ ...smallPlan(w), domain: DOMAIN }), secrets: { rootPassword: PASSWORD } }, (net) =>
      withProgram("app", { code: app, stack: "app", emulator, backendDir: backend.dir, config: { networkStack: net.stack.cli!.qualifiedName } }, async (appStack) => {
        const both = [net.stack, appStack.stack];
        const netUp = await judgedUp(net, "network: first up");
        expect(changeList(netUp.steps)).toEqual(["create edge-1", "create edge-2", "create site"]);
        const appUp = await judgedUp(appStack, "app: first up");
        expect(changeList(appUp.steps)).toEqual(["create edge-1-https", "create edge-2-https", "create mail"]);
        platformMatches("both first ups", both);
        const [edge1, edge2] = [idOf(net.stack, "edge-1"), idOf(net.stack, "edge-2")];
        expect(appStack.stack.state().resources.find((r) => r.name === "edge-2-https")!.outputs.vpsId).toBe(edge2);
        expect(appStack.stack.state().resources.find((r) => r.name === "mail")!.outputs.domain).toBe(`mail.${DOMAIN}`);
        await bothEmpty("after both first ups", net, appStack);

        // The network team renames edge-2: a new server replaces it (its rules go with the old one).
        net.program(network("edge-two-b"));
        const replaced = await judgedUp(net, "network: edge-2 renamed (replaced)");
        expect(changeList(replaced.steps)).toEqual(["replace edge-2"]);
        const newEdge2 = idOf(net.stack, "edge-2");
        expect(serverRecords(net.stack.world()).find((s) => s.id === edge2)!.status).toBe("terminated");
        // The app's preview sees the new id: its rule is replaced onto the new server.
        const follow = await judgedUp(appStack, "app: follows the replaced server");
        expect(changeList(follow.steps)).toEqual(["replace edge-2-https"]);
        expect(appStack.stack.state().resources.find((r) => r.name === "edge-2-https")!.outputs.vpsId).toBe(newEdge2);
        expect(liveServers(net.stack.world()).map((s) => s.id).sort()).toEqual([edge1, newEdge2].sort());
        platformMatches("after the replace", both);
        await bothEmpty("after the replace", net, appStack);
      }),
    );
  } finally {
    backend.close();
    await emulator.close();
  }
});

const INVOICE = `new svc.Template("invoice", { name: "invoice", subject: "Your invoice", textBody: "Attached." });`;
const WEB = `
const web = new svc.Vps("web", { planId: config.require("planId"), osType: "ubuntu", osVersion: "24.04", rootPassword: config.requireSecret("rootPassword") });
new svc.VpsFirewallRule("web-https", { vpsId: web.id, protocol: "tcp", action: "allow", port: "443", source: "0.0.0.0/0" });
new svc.Template("welcome", { name: "welcome", subject: "Welcome", textBody: "Hello" });
`;
const RECEIPT = `new svc.Template("receipt", { name: "receipt", subject: "Your receipt", textBody: "Thanks." });`;

/** The pulumi-svc resources of a stack, "name id". */
const held = (p: CorpusProgram) =>
  p.stack
    .state()
    .resources.filter((r) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic/"))
    .map((r) => `${r.name} ${r.id}`)
    .sort();

program("pulumi state move: a server, its rule and a template moved to a new stack of another project with their declarations; refused into a stack with pulumi-svc resources of its own, where state delete and adoptId do it", async () => {
  const emulator = await startTestEmulator({ transitions: "immediate" });
  const backend = sharedBackend();
  const settings = { emulator, backendDir: backend.dir, config: smallPlan, secrets: { rootPassword: PASSWORD } };
  try {
    await withProgram("legacy", { ...settings, code: `${INVOICE}\n${WEB}`, stack: "prod" }, (from) =>
      withProgram("platform", { ...settings, code: `export const team = "platform";\n`, stack: "prod" }, (to) =>
        withProgram("billing", { ...settings, code: RECEIPT, stack: "prod" }, async (billing) => {
          // Setup: their preview passes would only list the creates. The platform stack has no resource yet.
          await Promise.all([operation(from, "setup", "up", { skipPreview: true }), operation(billing, "setup", "up", { skipPreview: true })]);
          const before = worldView(emulator.control.state());
          const names = ["web", "web-https", "welcome"];
          const ids = names.map((n) => `${n} ${idOf(from.stack, n)}`).sort();
          const invoice = idOf(from.stack, "invoice");
          emulator.control.clearRequests();

          // Into a stack whose pulumi-svc resources have their own pulumi-nodejs provider: refused
          // (each stack's provider holds its stack's config, so the two differ), nothing moved.
          const texts = () => [from.stack.stateText(), billing.stack.stateText()];
          const untouched = texts();
          const refused = await stateMove(from, billing, ["invoice"], "into a stack with pulumi-svc resources of its own");
          expect(refused.code).not.toBe(0);
          expect(refused.stderr).toContain(`error: provider urn:pulumi:prod::${billing.project.project}::pulumi:providers:pulumi-nodejs::default already exists in destination stack`);
          expect(texts()).toEqual(untouched);
          // What to do there instead: drop it from the source's state (the object stays), adopt it in the destination.
          const dropped = await from.stack.cli!.command(["state", "delete", urnOf(from.stack, "invoice"), "--yes"]);
          expect({ code: dropped.code, output: dropped.code ? dropped.stdout + dropped.stderr : "" }).toEqual({ code: 0, output: "" });
          billing.config("invoiceId", invoice);

          // Into the platform stack: the state moves (the provider copied with it).
          const moved = await stateMove(from, to, names, "into a new stack");
          expect({ code: moved.code, output: moved.code ? moved.stdout + moved.stderr : "" }).toEqual({ code: 0, output: "" });
          expect(held(to)).toEqual(ids);
          expect(held(from)).toEqual([]);
          expect(emulator.control.requests()).toEqual([]);

          // The declarations move with them: the platform's up changes nothing, the billing's adopts the invoice template.
          from.program(`export const team = "legacy";\n`);
          to.program(`export const team = "platform";\n${WEB}`);
          billing.program(`${RECEIPT}\n${INVOICE.replace(`textBody: "Attached." }`, `textBody: "Attached.", adoptId: config.require("invoiceId") }`)}`);
          const ups = await Promise.all([judgedUp(from, "legacy: after the moves"), judgedUp(to, "platform: after the move"), judgedUp(billing, "billing: adopts the invoice template")]);
          expect(ups.map((up) => changeList(up.steps))).toEqual([[], [], ["create invoice"]]);
          expect(calls(emulator.control.requests().filter((r) => r.method !== "GET"))).toEqual([]);
          expect(worldView(emulator.control.state())).toEqual(before);
          expect(held(to)).toEqual(ids);
          expect(held(billing)).toEqual([`invoice ${invoice}`, `receipt ${idOf(billing.stack, "receipt")}`]);
          platformMatches("after the moves", [from.stack, to.stack, billing.stack]);
          await Promise.all([from, to, billing].map((p) => emptyPreview(p, "after the moves")));
        }),
      ),
    );
  } finally {
    backend.close();
    await emulator.close();
  }
});
