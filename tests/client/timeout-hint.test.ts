/**
 * The customTimeouts hint a failed create gets (common-inputs.ts, around each method in dispatch.ts) is decided by the error's class —
 * a WaitTimeoutError anywhere in its cause chain — never by its words: a message that merely reads
 * "timed out after" gets none, and a wait's timeout wrapped in an OperationError and a
 * PartialFailure still gets it.
 */
import { methods } from "../../provider/dispatch";
import { ProviderRuntime } from "../../provider/runtime";
import { OperationError, WaitTimeoutError } from "../../provider/client";
import { operationError, PartialFailure } from "../../provider/resource";
import type { SchemaResource } from "../../provider/schema";
import { vps } from "../../provider/vps/vps";

const failingWith = (err: unknown): SchemaResource =>
  ({
    schema: vps.schema,
    create: async () => {
      throw err;
    },
  }) as unknown as SchemaResource;

const create = (impl: SchemaResource, timeouts?: Record<string, string>) =>
  methods.create(new ProviderRuntime(), "Vps", impl, [{ name: "web", ...(timeouts ? { timeouts } : {}) }]).then(
    () => {
      throw new Error("expected the create to fail");
    },
    (err: unknown) => err as Error,
  );

const timeout = () => new WaitTimeoutError("server abc to be running", { status: "provisioning" }, 2_000, (s) => JSON.stringify(s));

test("a wait's timeout inside a PartialFailure names the customTimeouts limit that applied", async () => {
  const err = await create(failingWith(new PartialFailure("abc", {}, {}, operationError("create", timeout()))), { create: "2s" });
  expect(err).toBeInstanceOf(PartialFailure);
  expect(err.message).toBe(
    'create failed: timed out after 2 s waiting for server abc to be running; last state seen: {"status":"provisioning"}. The limit was customTimeouts.create "2s": raise it in the resource options, e.g. customTimeouts: { create: "30m" }',
  );
  expect((err.cause as OperationError).code).toBe("WAIT_TIMEOUT");
});

test("without customTimeouts the hint says the default applied", async () => {
  const err = await create(failingWith(timeout()));
  expect(err.message).toMatch(/\. The limit was the default for this wait: set it with the resource option customTimeouts: \{ create: "40m" \}$/);
});

test("an error whose words read like a timeout, but is none, gets no hint", async () => {
  const words = new OperationError("create", new Error("the upstream timed out after 3 s"));
  const err = await create(failingWith(words), { create: "2s" });
  expect(err.message).toBe("create failed: the upstream timed out after 3 s");
});
