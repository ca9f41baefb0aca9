/**
 * The email service ({email_base_url}): jobs, sending domains, templates, webhooks, status and
 * analytics, sending (single and batch) with the message lifecycle and signed webhook events,
 * receiving mail (receiving hosts, mailboxes, aliases, inbound messages).
 * State lives in `world.email` (see state.ts); every object belongs to one project and ids of
 * another project answer 404 with the route's not-found code.
 */
import type { ServiceModule } from "../core/module";
import { emailControl } from "./control";
import { addDomainWorker, domainHandlers, verifyDomainWorker } from "./domains";
import { inboxHandlers } from "./inbox";
import { jobHandlers, jobTransitions } from "./jobs";
import { messageHandlers, messageTransitions } from "./messages";
import { overviewHandlers } from "./overview";
import { sendHandlers } from "./send";
import { createTemplateWorker, templateHandlers } from "./templates";
import { webhookHandlers } from "./webhooks";
import { planHandlers, settleSubscriptions } from "./plans";
import { audienceHandlers } from "./audience";
import { suppressionHandlers } from "./suppressions";

export const emailModule: ServiceModule = {
  handlers: {
    ...jobHandlers, ...domainHandlers, ...templateHandlers, ...webhookHandlers, ...overviewHandlers, ...sendHandlers, ...messageHandlers,
    ...inboxHandlers, ...planHandlers, ...audienceHandlers, ...suppressionHandlers,
  },
  beforeRequest: settleSubscriptions,
  transitions: {
    ...jobTransitions({ add_domain: addDomainWorker, verify_domain: verifyDomainWorker, create_template: createTemplateWorker }),
    ...messageTransitions,
  },
  control: emailControl,
};
