/**
 * The virtual server service: every `vps.*` and `backup.*` route of the route table (server access:
 * SSH keys, port forwards, snapshots in access.ts).
 * Before each of them, due auto-renewals are taken from the wallet (see sweepAutoRenewals).
 */
import { platformRefusals } from "../platform";
import type { Handler, ServiceModule } from "../core/module";
import type { RouteId } from "../../contract/routes";
import { accessHandlers, accessTransitions } from "./access";
import { backupHandlers, backupTransitions } from "./backup";
import { billingHandlers, billingTransitions, sweepAutoRenewals } from "./billing";
import { firewallHandlers } from "./firewall";
import { serverHandlers, serverTransitions } from "./servers";

const handlers: Partial<Record<RouteId, Handler>> = { ...serverHandlers, ...billingHandlers, ...firewallHandlers, ...backupHandlers, ...accessHandlers };

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
  transitions: { ...serverTransitions, ...billingTransitions, ...backupTransitions, ...accessTransitions },
};
