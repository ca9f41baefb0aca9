/**
 * How the real-CLI driver (tools/support/real-cli.ts) reads what the CLI leaves: its `--event-log`
 * (engine events as JSON lines, pulumi/pulumi sdk/go/common/apitype/events.go) and
 * `stack export --show-secrets`. Runs without the CLI: the inputs are the CLI's formats.
 */
import { previewPlanOf, stateOfExport, stepsOfEventLog } from "../../tools/support/real-cli";
import { SECRET_SIG, SIG_KEY } from "../../tools/support/stack-state";

const T = "pulumi-nodejs:dynamic/svc:Webhook";
const urn = (name: string, type = T) => `urn:pulumi:s::p::${type}::${name}`;
const pre = (op: string, name: string, extra: object = {}) => ({ resourcePreEvent: { metadata: { op, urn: urn(name), type: T, ...extra } } });
const done = (op: string, name: string, extra: object = {}) => ({ resOutputsEvent: { metadata: { op, urn: urn(name), type: T, ...extra } } });
const log = (...events: object[]) => events.map((e) => JSON.stringify(e)).join("\n");

test("an up's steps are those of its update pass, a replacement's three steps one replace, the stack and providers left out", () => {
  const text = log(
    { preludeEvent: { config: {} } },
    pre("create", "preview-only"),
    { summaryEvent: {} },
    { preludeEvent: { config: {} } },
    { resourcePreEvent: { metadata: { op: "create", urn: urn("s", "pulumi:pulumi:Stack"), type: "pulumi:pulumi:Stack" } } },
    { resourcePreEvent: { metadata: { op: "create", urn: urn("default", "pulumi:providers:pulumi-nodejs"), type: "pulumi:providers:pulumi-nodejs" } } },
    pre("create-replacement", "hook", { diffs: ["url"] }),
    pre("replace", "hook", { diffs: ["url"] }),
    pre("same", "tpl"),
    pre("update", "srv", { old: { inputs: { planId: "s-1", __provider: "a", name: "n" } }, new: { inputs: { name: "n", planId: "s-2", __provider: "b" } } }),
    pre("delete-replaced", "hook"),
    { diagnosticEvent: { message: "a provider line\n", severity: "info" } },
  );
  const r = stepsOfEventLog(text);
  expect(r.steps.map((s) => `${s.op} ${s.name} ${s.diffs.join(",")}`)).toEqual(["replace hook url", "same tpl ", "update srv planId"]);
  expect(r.messages).toEqual(["a provider line"]);
});

test("a refresh step is the result the CLI gives it (step.go RefreshStep.ResultOp): delete when gone, update with the diff's keys on drift, same when the Diff finds none, `refresh` with the changed outputs for a resource diffed by outputs only; an error names the resource", () => {
  const text = log(
    { preludeEvent: { config: {} } },
    pre("refresh", "gone"),
    done("delete", "gone", { old: { outputs: { a: 1 } }, new: null }),
    pre("refresh", "drift"),
    done("update", "drift", { diffs: ["b"], old: { outputs: { a: 1, b: 2 } }, new: { outputs: { a: 1, b: 3 } } }),
    pre("refresh", "moved"),
    done("same", "moved", { old: { outputs: { a: 1, n: 1 } }, new: { outputs: { a: 1, n: 2 } } }),
    pre("refresh", "external"),
    done("refresh", "external", { old: { outputs: { a: 1, b: 2 } }, new: { outputs: { a: 1, b: 3 } } }),
    pre("create", "bad"),
    { resOpFailedEvent: { metadata: { op: "create", urn: urn("bad"), type: T } } },
    { diagnosticEvent: { urn: urn("bad"), message: "create failed: POST /email/webhooks 400 VALIDATION\n", severity: "error" } },
  );
  const r = stepsOfEventLog(text);
  expect(r.steps.map((s) => [s.name, s.op, s.diffs, s.error])).toEqual([
    ["gone", "delete", [], undefined],
    ["drift", "update", ["b"], undefined],
    ["moved", "same", [], undefined],
    ["external", "refresh", ["b"], undefined],
    ["bad", "create", [], "create failed: POST /email/webhooks 400 VALIDATION"],
  ]);
  expect(r.errors).toEqual(["svc:Webhook bad: create failed: POST /email/webhooks 400 VALIDATION"]);
});

test("stack export: secrets revealed and listed, pending deletes and pending creates kept, the stack's outputs", () => {
  const secret = (v: unknown) => ({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(v) });
  const exported = {
    version: 3,
    deployment: {
      resources: [
        { urn: urn("s", "pulumi:pulumi:Stack"), type: "pulumi:pulumi:Stack", custom: false, outputs: { ip: "1.2.3.4", key: secret("k") } },
        { urn: urn("hook"), type: T, custom: true, id: "wh_1", inputs: { url: "u", secret: secret("s1") }, outputs: { url: "u", secret: secret("s1") }, protect: true },
        { urn: urn("hook"), type: T, custom: true, id: "wh_0", inputs: {}, outputs: {}, delete: true },
      ],
      pending_operations: [{ type: "creating", resource: { urn: urn("tpl"), type: T, inputs: { name: "x" } } }],
    },
  };
  const state = stateOfExport(JSON.stringify(exported));
  expect(state.outputs).toEqual({ ip: "1.2.3.4", key: "k" });
  expect(state.secretOutputs).toEqual(["key"]);
  expect(state.resources.map((r) => [r.name, r.id, r.inputs, r.secrets, r.protect, r.pendingDelete ?? false])).toEqual([
    ["hook", "wh_1", { url: "u", secret: "s1" }, ["secret"], true, false],
    ["hook", "wh_0", {}, [], false, true],
  ]);
  expect(state.pendingOperations?.map((p) => [p.op, p.name, p.inputs])).toEqual([["create", "tpl", { name: "x" }]]);
});

test("the plan `up --json` prints before it acts: its steps as the event log's, the stack and providers left out; none when it printed no plan", () => {
  const stack = "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s";
  const plan = {
    steps: [
      { op: "same", urn: stack },
      { op: "create", urn: urn("default", "pulumi:providers:pulumi-nodejs") },
      { op: "create-replacement", urn: urn("hook"), replaceReasons: ["url"] },
      { op: "replace", urn: urn("hook"), replaceReasons: ["url"] },
      { op: "delete-replaced", urn: urn("hook") },
      { op: "update", urn: urn("srv", "acme:web:Tier$pulumi-nodejs:dynamic/svc:Vps"), diffReasons: ["planId"] },
      { op: "create", urn: urn("tier", "acme:web:Tier") },
    ],
    duration: 2_500_000_000,
    changeSummary: { create: 1, replace: 1, update: 1, same: 1 },
  };
  const stdout = `${JSON.stringify(plan, null, 4)}\n${JSON.stringify({ sequence: 0, preludeEvent: { config: {} } })}\n`;
  const r = previewPlanOf(stdout)!;
  expect(r.steps.map((s) => `${s.op} ${s.name} ${s.type} ${s.diffs.join(",")}`)).toEqual([
    `replace hook ${T} url`,
    "update srv pulumi-nodejs:dynamic/svc:Vps planId",
    "create tier acme:web:Tier ",
  ]);
  expect(r.durationMs).toBe(2500);
  expect(previewPlanOf(`${JSON.stringify({ sequence: 0, preludeEvent: { config: {} } })}\n`)).toBeUndefined();
  expect(previewPlanOf("error: could not load plugin\n")).toBeUndefined();
});
