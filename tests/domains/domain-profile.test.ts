/**
 * A registered domain cannot move to another account (its schema's `moveRefused`): a change of
 * `profile` is refused at preview on `profile` with the reason, before any call (another type's
 * change of profile replaces it: tests/engine/profiles-timeouts.test.ts). Through the real
 * dynamic-provider host.
 */
import { type ResourceHarness } from "../../tools/support/resource-harness";
import { stackConfig } from "../../tools/support/provider-host";
import { useResourceHarness } from "../support/per-file";
import { calls, fresh, T } from "./helpers";

let h: ResourceHarness;
useResourceHarness((x) => (h = x), {
  fresh,
  options: {
    config: (emu) => ({
      ...stackConfig({ apiUrl: emu.urls.api, emailUrl: emu.urls.email, apiKey: emu.keys.account, emailApiKey: emu.keys.email, projectId: emu.projects[0] }),
      "svc:profiles": JSON.stringify({ client: { apiKey: emu.keys.secondAccount } }),
    }),
  },
});

/** A domain of the default account as the state holds it. */
const inState = { name: "my-shop.com", period: 1, whoisProtection: false, autoRenew: true };

test("a registered domain moved to another profile: refused at preview on profile, naming both profiles and why, no call", async () => {
  const { failures } = await h.check(T, { name: "my-shop.com", profile: "client" }, inState);

  expect(failures).toEqual([
    {
      property: "profile",
      reason:
        "changing the profile (default → client) is refused: a registered domain cannot move to another account: a replace would register the name again in the new account (paid) while the registration in the old one stays. Keep the profile, or move the domain outside pulumi-svc and adopt it there (adoptId)",
    },
  ]);
  expect(calls(h)).toEqual([]);
});
