import * as pulumi from "@pulumi/pulumi";

// The provider object is the exports of its own module: the state stores a `require` of it (../shim.ts).
import provider = require("../dynamic/Webhook");
import { commonInputs, type CommonArgs } from "../common";

import type { WebhookEvent } from "../../contract/schemas";

export type { WebhookEvent };

export interface WebhookArgs extends CommonArgs {
  /** https URL with a public fully-qualified host and no credentials, at most 2,000 characters. */
  url: pulumi.Input<string>;
  /** 1 to 20 event names; order and duplicates do not matter. */
  events: pulumi.Input<pulumi.Input<WebhookEvent>[]>;
  /** Take over an existing webhook (its id, from `GET /webhooks`) instead of adding another. Its secret is never
   * answered again, so it is made anew: deleted, then created again with this program's url and events (webhooks
   * are free), and the stack holds the new secret. Changing or removing it afterwards changes nothing. See the
   * README, "Adopting existing objects". */
  adoptId?: pulumi.Input<string>;
}

/**
 * An endpoint that receives the project's email events, signed with `secret`. The API cannot
 * change a webhook: any change replaces it (and gives it a new secret). When the plan's webhook
 * limit is reached, use the `deleteBeforeReplace` resource option.
 */
export class Webhook extends pulumi.dynamic.Resource {
  declare readonly url: pulumi.Output<string>;
  declare readonly events: pulumi.Output<WebhookEvent[]>;
  declare readonly webhookId: pulumi.Output<string>;
  /** Signing secret for `verifyWebhookSignature`; a secret output. */
  declare readonly secret: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean>;
  declare readonly failCount: pulumi.Output<number>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { webhookId: undefined, secret: undefined, enabled: undefined, failCount: undefined, createdAt: undefined, ...args, ...commonInputs(opts) },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["secret"] }),
      "svc",
      "Webhook",
    );
  }
}
