/**
 * examples/two-accounts under the real `pulumi` CLI against the emulator's two seeded accounts (issue 17,
 * acceptance 1): a Vps and a Template in account A (top-level settings) and the same in account B
 * (the profile "client"). Each object lands in its own account, each wallet is charged once, the
 * state holds no key, a second preview is empty, destroy removes all four.
 */
import { join } from "node:path";
import { changes, onlySame, ROOT, type EngineStack } from "../../tools/support/engine-harness";
import { emailRecords, liveServers } from "../../tools/support/world";
import { useEngineStack } from "../support/per-file";

jest.setTimeout(90_000);

let s: EngineStack;
const wallets = () => {
  const world = s.world();
  return { a: world.account.wallet, b: world.otherAccounts![0].wallet };
};
const live = () => liveServers(s.world());
const templates = () => emailRecords(s.world()).templates;
let before: { a: number; b: number };
let price: number;

useEngineStack((x) => (s = x), {
  options: { projectDir: join(ROOT, "examples/two-accounts"), stack: "engine-test-two-accounts" },
  setup: (s) => {
    const { keys, secondAccountProject } = s.emu;
    // What `pulumi config set --path --secret 'svc:profiles.client.apiKey' …` leaves: one structured value.
    s.config("svc:profiles", JSON.stringify({ client: { apiKey: keys.secondAccount, emailApiKey: keys.secondEmail, projectId: secondAccountProject } }), true);
    s.config("svc-two-accounts:rootPassword", "TwoAccounts!2026", true);
    before = wallets();
    price = s.world().catalog.vpsPlans.find((p) => p.name === "s-1vcpu-1gb")!.prices.monthly;
  },
});

test("up makes the server and the template in each account, and charges each wallet once", async () => {
  const r = await s.run("up");
  expect(changes(r).sort()).toEqual(["create web-client", "create web-ours", "create welcome-client", "create welcome-ours"]);
  const projectA = s.emu.projects[0];
  const projectB = s.emu.secondAccountProject;
  expect(live().map((x) => [x.name.replace(/-[0-9a-f]{7}$/, ""), x.projectId, x.status]).sort()).toEqual([
    ["web-client", projectB, "running"],
    ["web-ours", projectA, "running"],
  ]);
  expect(templates().map((t) => [t.name, t.projectId]).sort()).toEqual([
    ["welcome", projectA],
    ["welcome", projectB],
  ].sort());
  expect(wallets()).toEqual({ a: before.a - price, b: before.b - price });
  // Each account's objects were made with its own key.
  const creates = s.emu.control.requests().filter((q) => q.method === "POST" && (q.path === "/api/vps" || q.path === "/email/templates"));
  expect(creates.map((q) => `${q.path} ${q.keyPrefix}`).sort()).toEqual(
    [
      `/api/vps ${s.emu.keys.account.slice(0, 12)}`,
      `/api/vps ${s.emu.keys.secondAccount.slice(0, 12)}`,
      `/email/templates ${s.emu.keys.email.slice(0, 12)}`,
      `/email/templates ${s.emu.keys.secondEmail.slice(0, 12)}`,
    ].sort(),
  );
});

test("the state holds the profile's name and no key of either account", () => {
  const state = s.stateText();
  expect(state).toContain('"profile":"client"');
  for (const key of [s.emu.keys.account, s.emu.keys.email, s.emu.keys.secondAccount, s.emu.keys.secondEmail]) expect(state).not.toContain(key);
});

test("a second preview shows no changes and makes no write", async () => {
  s.clearRequests();
  expect(onlySame(await s.run("preview"))).toBe(true);
  expect(s.writes()).toEqual([]);
});

test("destroy removes all four, each from its own account", async () => {
  const r = await s.run("destroy");
  expect(changes(r).sort()).toEqual(["delete web-client", "delete web-ours", "delete welcome-client", "delete welcome-ours"]);
  expect(live()).toEqual([]);
  expect(templates()).toEqual([]);
  expect(wallets()).toEqual({ a: before.a - price, b: before.b - price });
});
