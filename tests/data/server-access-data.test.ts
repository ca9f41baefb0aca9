/**
 * getVpsSshKeys / getVpsSnapshots (sdk/data.ts, issue 25) against the emulator over real HTTP: the
 * server's keys and snapshots as the API lists them, their Output forms, and the clear error of a
 * server out of reach.
 */
import * as pulumi from "@pulumi/pulumi";
import * as svc from "../../sdk";
import type { TestEmulator } from "../../tools/support/emulator";
import { failure } from "../../tools/support/resource-harness";
import { KEYS } from "../../tools/support/ssh-keys";
import { PLAN } from "../../tools/support/world";
import { useEmulator } from "../support/per-file";

let emu: TestEmulator;
const savedEnv = { ...process.env };

useEmulator((e) => (emu = e), {
  fresh: (emu) => {
    emu.control.reset();
    Object.assign(process.env, { SVC_API_URL: emu.urls.api, SVC_API_KEY: emu.keys.account, SVC_PROJECT_ID: emu.projects[0] });
  },
  beforeClose: () => {
    process.env = savedEnv;
  },
});

async function sharedServer(): Promise<string> {
  const plan = emu.control.state().catalog.vpsPlans.find((p) => p.name === PLAN.shared)!;
  const body = { planId: plan.id, projectId: emu.projects[0], name: "nat-1", osType: "ubuntu", osVersion: "24.04", rootPassword: "Sup3rSecret!23", billingPeriod: "monthly" };
  const id = (await emu.call("POST", "/api/vps", { key: emu.keys.account, body })).body.data.id as string;
  await emu.ctl("POST", "/transitions/settle");
  return id;
}

async function valueOf<T>(o: pulumi.Output<T>): Promise<T | "unknown"> {
  if (!(await (o as unknown as { isKnown: Promise<boolean> }).isKnown)) return "unknown";
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

test("the keys and snapshots of a server, plain and as Outputs", async () => {
  const id = await sharedServer();
  await emu.call("POST", `/api/vps/${id}/ssh-keys`, { key: emu.keys.account, body: { publicKey: KEYS.ed25519.publicKey, label: "admin" } });
  await emu.call("POST", `/api/vps/${id}/snapshots`, { key: emu.keys.account, body: { name: "base" } });
  await emu.ctl("POST", "/transitions/settle");

  expect(await svc.getVpsSshKeys(id)).toEqual([{ fingerprint: KEYS.ed25519.fingerprint, type: "ssh-ed25519", label: "admin", publicKey: KEYS.ed25519.publicKey, createdAt: expect.any(String) }]);
  expect(await svc.getVpsSnapshots(id)).toEqual([expect.objectContaining({ name: "base", status: "ready" })]);
  expect(await valueOf(svc.getVpsSshKeysOutput(pulumi.output(id)))).toHaveLength(1);
  expect(await valueOf(svc.getVpsSnapshotsOutput(pulumi.output(id)))).toHaveLength(1);
});

test("a server out of reach fails naming the call and its code", async () => {
  const err = await failure<Error & { code?: string }>(svc.getVpsSnapshots("00000000-0000-4000-8000-000000000000"));
  expect(err.message).toMatch(/^getVpsSnapshots failed: GET \/vps\/0{8}-0000-4000-8000-0{12}\/snapshots 404 INSTANCE_NOT_FOUND/);
  expect(err.code).toBe("INSTANCE_NOT_FOUND");
});
