/**
 * A plan limit refused during the `up` (issue 42), as tests/cli/limit-during-up.test.ts runs it
 * under the real CLI: two Mailboxes on a plan that allows one. The preview refuses before any create and says nothing
 * was made; with `up --skip-preview` the mailboxes' checks run after the creates of the domains
 * they wait on, so the refusal names the creates made before it (kept in the stack) and says the
 * refused one was not made — never "nothing was made".
 */
import type { EngineStack } from "../../tools/support/engine-harness";
import { emailRecords } from "../../tools/support/world";

export async function mailboxLimitRefusedDuringUp(s: EngineStack, program: (code: string) => void): Promise<void> {
  expect((await s.emu.ctl("PATCH", "/email/plan-limits", { mailboxes: 1, receiving: true, forwarding: true })).status).toBe(200);
  const domainName = "limits-up.example-shop.dev";
  program(
    `const domain = new svc.SendingDomain("mail", { domain: "${domainName}" });\n` +
      `const inbound = new svc.ReceivingDomain("inbound", { domainId: domain.domainId });\n` +
      `new svc.Mailbox("support", { domainId: inbound.domainId, localPart: "support" });\n` +
      `new svc.Mailbox("sales", { domainId: inbound.domainId, localPart: "sales" });\n`,
  );
  s.clearRequests();
  const preview = await s.run("preview", false);
  expect(preview.errors.join("\n")).toContain("(nothing was made)");
  expect(s.writes()).toEqual([]);

  const up = await s.run("up", false, { skipPreview: true });
  const failure = up.errors.join("\n");
  expect(failure).toContain("too many mailboxes for the email plan");
  expect(failure).not.toContain("nothing was made");
  const domain = emailRecords(s.world()).domains.find((d) => d.domain === domainName)!;
  // The SendingDomain and the ReceivingDomain were made before the mailboxes' checks: named, and in the stack.
  expect(failure).toMatch(/refused during `pulumi up`, after [23] creates of this run that stay in the stack \(the next `pulumi up` keeps them\): /);
  expect(failure).toContain(`SendingDomain ${domain.id}`);
  expect(failure).toContain(`ReceivingDomain ${domain.id}`);
  expect(failure).toContain("; this resource was not made)");
  const inStack = s.state().resources.map((r) => `${r.type.split(":").pop()} ${r.id}`);
  expect(inStack).toEqual(expect.arrayContaining([`SendingDomain ${domain.id}`, `ReceivingDomain ${domain.id}`]));
  // One mailbox made, the other refused.
  expect(emailRecords(s.world()).addresses.filter((a) => a.type === "mailbox" && a.domainId === domain.id)).toHaveLength(1);
}
