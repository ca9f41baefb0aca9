/**
 * A handler answers what its route's response schema declares (emulator/core/module.ts `Answer`):
 * an answer of another shape does not compile (each `@ts-expect-error` below fails
 * `tsc -p tsconfig.json` the day its line compiles), and the same answer forced past the compiler
 * is what the type spares the emulator: the route's response schema refuses it at run time, a 500.
 */
import type { RouteResponse } from "../../contract/routes";
import { buildApp } from "../../emulator/core/app";
import { Emu } from "../../emulator/core/emu";
import { EmuError, Reply } from "../../emulator/core/errors";
import type { HandlerTable, Handlers, ServiceModule } from "../../emulator/core/module";
import { seededKeys } from "../../emulator/core/seed";

const rule: RouteResponse<"vps.firewall.list">[number] = { id: "r1", protocol: "tcp", action: "allow", port: "22", source: "0.0.0.0/0" };

const declared: Handlers<"account.notifications.unreadCount" | "vps.firewall.list"> = {
  "account.notifications.unreadCount": () => ({ count: 3 }),
  "vps.firewall.list": () => [rule],
};

// Each of these answers a shape its route does not declare.
const drifted: HandlerTable = {
  // @ts-expect-error count is an integer on this route, not a string
  "account.notifications.unreadCount": () => ({ count: "3" }),
  // @ts-expect-error a wallet answer lacks its currency
  "account.wallet": ({ caller }) => ({ balance: caller.account.wallet }),
  // @ts-expect-error another success status keeps the route's shape: Reply's data is checked too
  "vps.backup.cancel": () => new Reply({ cancelled: false }, { status: 200 }),
  // @ts-expect-error a list route answers a list, not one of its rows
  "vps.firewall.list": () => rule,
  // @ts-expect-error an async handler is held to the same shape
  "account.notifications.markRead": async (ctx) => ({ id: ctx.params.notificationId, isRead: false }),
};

// A refusal is thrown, whatever the route answers on success; a handler may only refuse.
const refusing: HandlerTable = {
  "vps.backup.cancel": () => {
    throw new EmuError(404, "BACKUP_NOT_CONFIGURED", "No backup add-on");
  },
};

/** One request as the seeded whole-account key to an emulator of only `handlers`, over HTTP: its status and body. */
async function served(handlers: HandlerTable, method: string, path: string): Promise<{ status: number; body: unknown }> {
  const emu = new Emu({ seed: 1, transitions: "immediate", dns: "auto" });
  const module: ServiceModule = { handlers };
  const { app } = buildApp(emu, [module]);
  try {
    const origin = await app.listen({ port: 0, host: "127.0.0.1" });
    const res = await fetch(origin + path, { method, headers: { authorization: `Bearer ${seededKeys(emu.world).account}` } });
    return { status: res.status, body: await res.json() };
  } finally {
    emu.close();
    await app.close();
  }
}
const unreadCount = (handlers: HandlerTable) => served(handlers, "GET", "/api/account/notifications/unread-count");

test("an answer of the declared shape is served in the envelope", async () => {
  expect(await unreadCount(declared)).toEqual({ status: 200, body: { success: true, data: { count: 3 } } });
});

test("the drifted answer, past the compiler, is refused by the route's schema: a 500, not the answer", async () => {
  expect(await unreadCount(drifted)).toEqual({ status: 500, body: { success: false, error: "Internal error", code: "INTERNAL_ERROR" } });
});

test("a handler that only refuses answers its refusal", async () => {
  expect(await served(refusing, "DELETE", "/api/vps/x/backup")).toEqual({ status: 404, body: { success: false, error: "No backup add-on", code: "BACKUP_NOT_CONFIGURED" } });
});
