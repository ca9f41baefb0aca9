/**
 * A generated fixture project (tools/support/engine-harness.ts fixtureProject) and its engine stack
 * for the enclosing describe block, the program's `planId` config set to the catalogue's first VPS
 * plan: what the tests of one server need.
 */
import type { EmulatorOptions } from "../../emulator";
import { fixtureProject, type EngineStack } from "../../tools/support/engine-harness";
import { useEngineStack } from "../support/per-file";

export function usePlanStack(name: string, stack: string, set: (s: EngineStack) => void, emulator?: EmulatorOptions): ReturnType<typeof fixtureProject> {
  const project = fixtureProject(name);
  useEngineStack(set, {
    options: { projectDir: project.dir, stack, removeProject: true, emulator },
    setup: (s) => s.config(`${project.project}:planId`, s.world().catalog.vpsPlans[0].id),
  });
  return project;
}
