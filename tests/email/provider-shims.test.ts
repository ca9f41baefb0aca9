/**
 * Issue 4, acceptance 4: the `__provider` a user's program stores for each email resource is small
 * (≤ 2 KB), captures no key and no URL, and loads in the real provider host. Acceptance 5 (first
 * half): Webhook lists `secret` as an additional secret output.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { programRegistrations, type Registration } from "../../tools/support/provider-host";

const ARGS: Record<string, Record<string, unknown>> = {
  SendingDomain: { domain: "mail.example.com" },
  SendingDomainVerification: { domainId: "d-1" },
  Webhook: { url: "https://hooks.example.com/in", events: ["email.sent"] },
  Template: { name: "welcome", textBody: "Hi {{name}}" },
  ReceivingDomain: { domainId: "d-1" },
  Mailbox: { domainId: "d-1", localPart: "support" },
  MailAlias: { mailboxId: "3f1c2a4e-0000-4000-8000-0000000000a1", localPart: "help" },
};
const TYPES = Object.keys(ARGS);

let h: ResourceHarness;
let plain: Registration[];
let withCredentials: Registration[];

/** One program declaring every email resource, as a user's would. */
const program = (prelude = "") => `${prelude}\n${TYPES.map((t) => `new svc.${t}("r${t}", ${JSON.stringify(ARGS[t])});`).join("\n")}`;

useResourceHarness((x) => (h = x), {
  setup: async (h) => {
    // The same program, once as is and once with every credential and URL present in the program's
    // process (environment and stack config): none of it may end up in __provider.
    const creds = {
      SVC_API_KEY: h.emu.keys.account,
      SVC_EMAIL_API_KEY: h.emu.keys.email,
      SVC_API_URL: h.emu.urls.api,
      SVC_EMAIL_URL: h.emu.urls.email,
      SVC_PROJECT_ID: h.emu.projects[0],
    };
    const config = { "svc:apiKey": h.emu.keys.account, "svc:emailApiKey": h.emu.keys.email, "svc:apiUrl": h.emu.urls.api, "svc:emailUrl": h.emu.urls.email };
    const prelude = [
      ...Object.entries(creds).map(([k, v]) => `process.env[${JSON.stringify(k)}] = ${JSON.stringify(v)};`),
      ...Object.entries(config).map(([k, v]) => `pulumi.runtime.setConfig(${JSON.stringify(k)}, ${JSON.stringify(v)});`),
    ].join("\n");
    [plain, withCredentials] = await Promise.all([programRegistrations(program()), programRegistrations(program(prelude))]);
  },
});

const registration = (list: Registration[], type: string) => {
  const found = list.find((r) => r.name === `r${type}`);
  if (!found) throw new Error(`no registration of ${type}: ${JSON.stringify(list.map((r) => r.name))}`);
  return found;
};

describe.each(TYPES)("%s: serialized provider", (type) => {
  test("token is pulumi-nodejs:dynamic/svc:<Type>", () => {
    expect(registration(plain, type).type).toBe(`pulumi-nodejs:dynamic/svc:${type}`);
  });

  test("__provider is at most 2 KB, and holds no key and no URL even when the program has them", () => {
    const text = registration(plain, type).inputs.__provider as string;
    expect(typeof text).toBe("string");
    expect(Buffer.byteLength(text, "utf8")).toBeLessThanOrEqual(2048);
    // The shim loads the installed package by name at call time; it carries no code snapshot.
    expect(text).toContain('require("pulumi-svc/provider")');
    expect(text).toContain(JSON.stringify(type));
    const withCreds = registration(withCredentials, type).inputs.__provider as string;
    expect(withCreds).toBe(text);
    for (const s of [text, withCreds]) {
      expect(s).not.toMatch(/svcm?_[0-9a-f]/);
      expect(s).not.toContain("svc_");
      expect(s).not.toContain("svcm_");
      expect(s).not.toContain("http");
      expect(s).not.toContain("127.0.0.1");
      for (const key of Object.values(h.emu.keys)) expect(s).not.toContain(key);
    }
  });

  test("loads in the real provider host: check answers the normalized inputs", async () => {
    const reg = registration(plain, type);
    const result = await h.host.check(type, {}, reg.inputs);
    expect(result.failures).toEqual([]);
    expect(result.inputs.__provider).toBe(reg.inputs.__provider);
    expect(h.host.stderr()).not.toContain("Error");
  });
});

test("Webhook lists secret as an additional secret output; the others keep no output secret", () => {
  expect(registration(plain, "Webhook").additionalSecretOutputs).toContain("secret");
  for (const type of TYPES.filter((t) => t !== "Webhook")) expect(registration(plain, type).additionalSecretOutputs).toEqual([]);
});

test("the shim's size, per type (recorded in the test output)", () => {
  const sizes = Object.fromEntries(TYPES.map((t) => [t, Buffer.byteLength(registration(plain, t).inputs.__provider as string, "utf8")]));
  console.log(`__provider bytes: ${JSON.stringify(sizes)}`);
  for (const size of Object.values(sizes)) expect(size).toBeLessThanOrEqual(2048);
});
