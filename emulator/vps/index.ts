/**
 * The virtual server service: every `vps.*` and `backup.*` route of the route table.
 * Before each of them, due auto-renewals are taken from the wallet (see sweepAutoRenewals).
 */
import { platformRefusals } from "../platform";
import type { Handler, ServiceModule } from "../core/module";
import type { RouteId } from "../../contract/routes";
import { backupHandlers, backupTransitions } from "./backup";
import { billingHandlers, billingTransitions, sweepAutoRenewals } from "./billing";
import { firewallHandlers } from "./firewall";
import { serverHandlers, serverTransitions } from "./servers";

const handlers: Partial<Record<RouteId, Handler>> = { ...serverHandlers, ...billingHandlers, ...firewallHandlers, ...backupHandlers };

export const vpsModule: ServiceModule = {
  refusals: platformRefusals,
  handlers: Object.fromEntries(
    Object.entries(handlers).map(([id, handler]) => [
      id,
      ((ctx) => {
        sweepAutoRenewals(ctx.emu);
        return handler!(ctx);
      }) satisfies Handler,
    ]),
  ),
  transitions: { ...serverTransitions, ...billingTransitions, ...backupTransitions },
};
