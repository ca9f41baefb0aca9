/**
 * What a context keeps (context.ts): each profile's context its own values, built once and shared by
 * every call made with it; a per-key slot one value per key; a read made once, shared by the checks
 * that ask at the same time, and asked again after it failed.
 */
import { ApiContexts } from "../../provider/context";
import { Kept, KeptRead } from "../../provider/context";

const contexts = () => {
  const all = new ApiContexts();
  return { staging: all.of("staging", () => ({ apiKey: "key-a", apiUrl: "http://127.0.0.1:9/api" }), "staging"), production: all.of("production", () => ({ apiKey: "key-b", apiUrl: "http://127.0.0.1:9/api" }), "production") };
};

test("a slot builds its value once per context: two profiles never share one", () => {
  const { staging, production } = contexts();
  let built = 0;
  const slot = new Kept((api) => ({ profile: api.profile, n: ++built }));
  expect(slot.of(staging)).toBe(slot.of(staging));
  expect(slot.of(production)).toEqual({ profile: "production", n: 2 });
  expect(slot.of(staging)).toEqual({ profile: "staging", n: 1 });
  expect(built).toBe(2);
});

test("a per-key slot keeps one value per key within a context", () => {
  const { staging, production } = contexts();
  const slot = new Kept((api, vpsId) => ({ vpsId, profile: api.profile }));
  expect(slot.of(staging, "vps-1")).toBe(slot.of(staging, "vps-1"));
  expect(slot.of(staging, "vps-2")).toEqual({ vpsId: "vps-2", profile: "staging" });
  expect(slot.of(production, "vps-1")).not.toBe(slot.of(staging, "vps-1"));
});

test("the context's lists and pollers are built once per context, on first use", () => {
  const { staging, production } = contexts();
  expect(staging.serverList).toBe(staging.serverList);
  expect(staging.servers).toBe(staging.servers);
  expect(staging.firewallOf("vps-1")).toBe(staging.firewallOf("vps-1"));
  expect(staging.firewallOf("vps-1")).not.toBe(staging.firewallOf("vps-2"));
  expect(production.serverList).not.toBe(staging.serverList);
  expect(production.platform).not.toBe(staging.platform);
});

test("a read made once: concurrent asks share it, a failed one is asked again, a good one is kept", async () => {
  const { staging, production } = contexts();
  const answers = [Promise.reject(new Error("503")), Promise.resolve("plan a")];
  let reads = 0;
  const status = new KeptRead(() => answers[reads++]!);
  const first = status.of(staging);
  expect(status.of(staging)).toBe(first);
  await expect(first).rejects.toThrow("503");
  await expect(status.of(staging)).resolves.toBe("plan a");
  await expect(status.of(staging)).resolves.toBe("plan a");
  expect(reads).toBe(2);
  answers.push(Promise.resolve("plan b"));
  await expect(status.of(production)).resolves.toBe("plan b");
  expect(reads).toBe(3);
});
