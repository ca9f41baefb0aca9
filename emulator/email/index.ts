/**
 * The email service ({email_base_url}): jobs, sending domains, templates, webhooks, status and
 * analytics. State lives in `world.email` (see state.ts); every object belongs to one project and
 * ids of another project answer 404 with the route's not-found code.
 */
import type { ServiceModule } from "../core/app";
import { addDomainWorker, domainHandlers, publishDns, verifyDomainWorker } from "./domains";
import { jobHandlers, jobTransitions } from "./jobs";
import { overviewHandlers } from "./overview";
import { createTemplateWorker, templateHandlers } from "./templates";
import { webhookHandlers } from "./webhooks";

export const emailModule: ServiceModule = {
  handlers: { ...jobHandlers, ...domainHandlers, ...templateHandlers, ...webhookHandlers, ...overviewHandlers },
  transitions: jobTransitions({ add_domain: addDomainWorker, verify_domain: verifyDomainWorker, create_template: createTemplateWorker }),
  publishDns,
};
