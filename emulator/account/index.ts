/**
 * Account routes: wallet, notifications, project activity. A project-limited key sees only its
 * project's notifications and activity; a whole-account key sees all (spec rule 1).
 */
import type { Ctx, ServiceModule } from "../core/app";
import { EmuError } from "../core/errors";
import type { NotificationRec } from "../core/world";

function visibleNotifications(ctx: Ctx): NotificationRec[] {
  return ctx.world.notifications.filter((n) => ctx.caller.wholeAccount || (n.projectId !== null && ctx.caller.reach.includes(n.projectId)));
}

export const accountModule: ServiceModule = {
  handlers: {
    "account.wallet": ({ world }) => ({ balance: world.account.wallet, currency: world.account.currency }),

    "account.notifications.list": (ctx) => {
      const unreadOnly = ctx.query.unreadOnly === "true";
      return visibleNotifications(ctx).filter((n) => !unreadOnly || !n.isRead);
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
