/**
 * Account routes: wallet, notifications, project activity. A project-limited key sees only its
 * project's notifications and activity; a whole-account key sees all of its account's (spec rule 1).
 */
import type { Ctx, ServiceModule } from "../core/module";
import { EmuError } from "../core/errors";
import { platformRefusals } from "../platform";
import { accountById, type NotificationRec } from "../core/world";

/** A project's notifications to keys reaching the project; account-wide ones (no project) to the account's whole-account keys. */
function visibleNotifications(ctx: Ctx): NotificationRec[] {
  const { caller, world } = ctx;
  return world.notifications.filter((n) =>
    n.projectId !== null ? caller.reach.includes(n.projectId) : caller.wholeAccount && accountById(world, n.accountId) === caller.account,
  );
}

export const accountModule: ServiceModule = {
  refusals: platformRefusals,
  handlers: {
    "account.wallet": ({ caller }) => ({ balance: caller.account.wallet, currency: caller.account.currency }),

    "account.notifications.list": (ctx) => {
      const unreadOnly = ctx.query.unreadOnly === "true";
      // The record's own `accountId` (whose account-wide notification it is) is the emulator's bookkeeping, not the API's field.
      return visibleNotifications(ctx)
        .filter((n) => !unreadOnly || !n.isRead)
        .map(({ accountId: _account, ...notification }) => notification);
    },

    "account.notifications.unreadCount": (ctx) => ({ count: visibleNotifications(ctx).filter((n) => !n.isRead).length }),

    "account.notifications.markRead": (ctx) => {
      const n = visibleNotifications(ctx).find((x) => x.id === ctx.params.notificationId);
      if (!n) throw new EmuError(404, "NOTIFICATION_NOT_FOUND", "Notification not found");
      if (!n.isRead) {
        n.isRead = true;
        n.readAt = ctx.emu.nowIso();
      }
      return { id: n.id, isRead: true as const };
    },

    "account.notifications.readAll": (ctx) => {
      let marked = 0;
      for (const n of visibleNotifications(ctx)) {
        if (n.isRead) continue;
        n.isRead = true;
        n.readAt = ctx.emu.nowIso();
        marked++;
      }
      return { marked };
    },

    "account.activity": (ctx) => {
      const projectId = ctx.params.projectId;
      if (!ctx.caller.reach.includes(projectId)) throw new EmuError(404, "PROJECT_NOT_FOUND", "Project not found");
      return ctx.world.activity.filter((a) => a.projectId === projectId).map(({ projectId: _p, ...entry }) => entry);
    },
  },
};
