/**
 * Domain registration API (`/api/domains…`): account-level, whole-account keys with the Domain
 * product only (checked by the core). See register.ts, records.ts, registrant.ts, registry.ts.
 */
import type { ServiceModule } from "../core/module";
import { recordHandlers, recordTransitions, settleRenewals } from "./records";
import { registerDomain, registerTransitions } from "./register";
import { registrantHandlers } from "./registrant";

export const domainsModule: ServiceModule = {
  // The domain routes word every refused body 422 VALIDATION_ERROR (spec: platform-api.md, Domains).
  refusals: { validation: "VALIDATION_ERROR" },
  handlers: {
    ...recordHandlers,
    ...registrantHandlers,
    "domains.register": registerDomain,
  },
  transitions: { ...registerTransitions, ...recordTransitions },
  beforeRequest: settleRenewals,
};
