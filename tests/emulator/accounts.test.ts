/**
 * The seeded second account: its own wallet, project, keys, servers, templates, domains and owner
 * details. Neither account's keys see, pay for or name the other's objects.
 */
import { useVpsFixture } from "../support/per-file";
import { PASSWORD, PLAN, type VpsFixture } from "../support/vps-fixture";

let f: VpsFixture;
useVpsFixture((fixture) => (f = fixture));

const asSecond = (method: string, path: string, body?: unknown) => f.api(method, path, { key: f.emu.keys.secondAccount, body });
const wallet = async (key: string) => (await f.api("GET", "/account/wallet", { key })).body.data.balance as number;

test("the second account has its own wallet, and a server it creates is charged to it and seen by it alone", async () => {
  expect(await wallet(f.emu.keys.secondAccount)).toBe(20_000_000);
  const project = f.emu.secondAccountProject;
  const created = await f.create({ projectId: project, name: "client-web" }, f.emu.keys.secondAccount);
  expect(created.status).toBe(201);
  const price = f.planPrice(PLAN.small);
  expect(await wallet(f.emu.keys.secondAccount)).toBe(20_000_000 - price);
  expect(await wallet(f.emu.keys.account)).toBe(50_000_000);

  const id = created.body.data.id as string;
  expect((await asSecond("GET", "/vps")).body.data.map((s: { id: string }) => s.id)).toEqual([id]);
  expect((await f.api("GET", "/vps")).body.data).toEqual([]);
  expect((await f.api("GET", `/vps/${id}`)).body.code).toBe("INSTANCE_NOT_FOUND");
  expect((await f.api("DELETE", `/vps/${id}`)).body.code).toBe("INSTANCE_NOT_FOUND");
});

test("a key cannot name the other account's project", async () => {
  const intoFirst = await f.create({ projectId: f.emu.projects[0] }, f.emu.keys.secondAccount);
  expect([intoFirst.status, intoFirst.body.code]).toEqual([404, "PROJECT_NOT_FOUND"]);
  const intoSecond = await f.create({ projectId: f.emu.secondAccountProject });
  expect([intoSecond.status, intoSecond.body.code]).toEqual([404, "PROJECT_NOT_FOUND"]);
  const email = await f.emu.call("GET", "/email/templates", { key: f.emu.keys.account, headers: { "x-svc-project": f.emu.secondAccountProject } });
  expect([email.status, email.body.code]).toEqual([404, "PROJECT_NOT_FOUND"]);
  expect(await wallet(f.emu.keys.secondAccount)).toBe(20_000_000);
});

test("templates of one account's project are not the other's; the platform key reaches its account's one email project", async () => {
  const body = { name: "welcome", subject: "Hi", textBody: "Hello" };
  const first = await f.emu.call("POST", "/email/templates", { key: f.emu.keys.email, body });
  expect(first.status).toBe(202);
  f.emu.control.advanceClock(0.1);
  expect((await f.emu.call("GET", "/email/templates", { key: f.emu.keys.secondEmail })).body.data).toEqual([]);
  // The second account has one project with email, so its whole-account key needs no X-Svc-Project.
  const second = await f.emu.call("POST", "/email/templates", { key: f.emu.keys.secondAccount, body });
  expect(second.status).toBe(202);
  f.emu.control.advanceClock(0.1);
  const listed = (await f.emu.call("GET", "/email/templates", { key: f.emu.keys.secondEmail })).body.data;
  expect(listed.map((t: { id: string }) => t.id)).toEqual([second.body.data.templateId]);
});

test("domains and owner details belong to one account: the other sees none, and cannot register the same name", async () => {
  const registered = await asSecond("POST", "/domains", { name: "klien-nusantara.com", period: 1 });
  expect(registered.status).toBe(201);
  expect((await asSecond("GET", "/domains")).body.data.map((d: { name: string }) => d.name)).toEqual(["klien-nusantara.com"]);
  expect((await f.api("GET", "/domains")).body.data).toEqual([]);
  expect((await f.api("GET", `/domains/${registered.body.data.id}`)).body.code).toBe("DOMAIN_NOT_FOUND");
  const again = await f.api("POST", "/domains", { body: { name: "klien-nusantara.com", period: 1 } });
  expect([again.status, again.body.code]).toEqual([409, "DOMAIN_UNAVAILABLE"]);
  expect(await wallet(f.emu.keys.account)).toBe(50_000_000);

  expect((await asSecond("GET", "/domains/registrant")).body.data.name).toBe("Budi Santoso");
  expect((await f.api("GET", "/domains/registrant")).body.data.name).toBe("Dewi Lestari");
});

test("the second account's servers count against its own server limit only", async () => {
  const state = f.emu.control.emu.world;
  state.otherAccounts![0].serverLimit = 1;
  expect((await f.create({ projectId: f.emu.secondAccountProject, name: "one" }, f.emu.keys.secondAccount)).status).toBe(201);
  const over = await f.create({ projectId: f.emu.secondAccountProject, name: "two" }, f.emu.keys.secondAccount);
  expect([over.status, over.body.code]).toEqual([400, "REQUEST_ERROR"]);
  expect((await f.create({ name: "first-account", rootPassword: PASSWORD })).status).toBe(201);
});
