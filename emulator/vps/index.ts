/**
 * The virtual server service: every `vps.*` and `backup.*` route of the route table (server access:
 * SSH keys, port forwards, snapshots in access.ts).
 * Before each of them, due auto-renewals are taken from the wallet (see sweepAutoRenewals).
 */
import { platformRefusals } from "../platform";
import { runBefore, type HandlerTable, type ServiceModule } from "../core/module";
import { accessHandlers, accessTransitions } from "./access";
import { backupHandlers, backupTransitions } from "./backup";
import { billingHandlers, billingTransitions, sweepAutoRenewals } from "./billing";
import { firewallHandlers } from "./firewall";
import { serverHandlers, serverTransitions } from "./servers";

const handlers: HandlerTable = { ...serverHandlers, ...billingHandlers, ...firewallHandlers, ...backupHandlers, ...accessHandlers };

export const vpsModule: ServiceModule = {
  refusals: platformRefusals,
  handlers: runBefore(handlers, (ctx) => sweepAutoRenewals(ctx.emu)),
  transitions: { ...serverTransitions, ...billingTransitions, ...backupTransitions, ...accessTransitions },
};
