/**
 * A plan limit refused during the `up` (issue 42), under the real `pulumi` CLI: with
 * `up --skip-preview` the mailboxes' checks run after the creates of the domains they wait on, so the
 * refusal says which creates of the run were made (and stay in the stack) and that the refused one
 * was not — never "nothing was made". The preview's refusal, before any create, says nothing was made.
 */
import { fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { useEngineStack } from "../support/per-file";
import { mailboxLimitRefusedDuringUp } from "../support/limit-during-up";

jest.setTimeout(600_000);

const project = fixtureProject("cli-limit-up");
let s: EngineStack;
useEngineStack((x) => (s = x), { options: { projectDir: project.dir, stack: "cli-limit-up", removeProject: true } });

test("two Mailboxes on a plan that allows one, `up --skip-preview`: the refusal names the creates made before it, which the stack keeps", async () => {
  await mailboxLimitRefusedDuringUp(s, project.program);
  await s.run("destroy");
});
