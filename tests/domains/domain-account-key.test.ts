/**
 * Domain with a project-limited API key (issue 6, acceptance 6): the whole-account-key message comes
 * at preview, from the free dry run, before any paid call; and a create that gets there anyway is
 * refused the same way, charging nothing.
 */
import type { ResourceHarness } from "../../tools/support/resource-harness";
import { useResourceHarness } from "../support/per-file";
import { stackConfig } from "../../tools/support/provider-host";
import { calls, domainRecords, failure, fresh, SEEDED_WALLET, T, wallet } from "./helpers";

let h: ResourceHarness;
useResourceHarness((x) => (h = x), {
  options: { config: (emu) => stackConfig({ apiUrl: emu.urls.api, emailUrl: emu.urls.email, apiKey: emu.keys.project }) },
  fresh,
});

const WHOLE_ACCOUNT = /Domain resources need a whole-account API key: this key is limited to one project\. Create a key that covers the whole account/;

test("preview refuses on name with the whole-account-key message; only the dry run was sent", async () => {
  const { failures } = await h.check(T, { name: "my-shop.com" });

  expect(failures).toEqual([{ property: "name", reason: expect.stringMatching(/^registration dry run failed: POST \/domains 403 ACCOUNT_KEY_REQUIRED — /) }]);
  expect(failures[0].reason).toMatch(WHOLE_ACCOUNT);
  expect(calls(h)).toEqual(["POST /api/domains 403"]);
  expect(wallet(h)).toBe(SEEDED_WALLET);
});

test("create gets the same message and charges nothing: it stops at the look for the name, before the registration", async () => {
  const inputs = { ...(await h.inputs(T, { name: "my-shop.com" })), period: 1, whoisProtection: false, autoRenew: true };

  const err = await failure(h.host.create(T, inputs));

  expect(err.message).toMatch(/^create failed: GET \/domains 403 ACCOUNT_KEY_REQUIRED — /);
  expect(err.message).toMatch(WHOLE_ACCOUNT);
  expect(wallet(h)).toBe(SEEDED_WALLET);
  expect(domainRecords(h)).toEqual([]);
  expect(calls(h)).toEqual(["GET /api/domains 403"]);
});
