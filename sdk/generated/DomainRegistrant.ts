// Written by `npm run docs` from the schema in provider/domains/registrant.ts: edit the schema there, then run it.
import type * as pulumi from "@pulumi/pulumi";
import type { AdoptableArgs } from "../common";

/** The arguments of {@link DomainRegistrant}. Reference: docs/DomainRegistrant.md. */
export interface DomainRegistrantArgs extends AdoptableArgs {
  /**
   * The owner's full name.
   * - Rule: must not be empty: name is required for a registration; at most 255 characters.
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   */
  name: pulumi.Input<string>;
  /**
   * The owner's organization, if any. Leaving it out clears it.
   * - Rule: at most 255 characters.
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   */
  organization?: pulumi.Input<string>;
  /**
   * The owner's contact address (`user@example.org`), lower-cased. Personal data.
   * - Rule: at most 320 characters; must be an email address (user@example.org).
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   * - Secret: stored encrypted, never printed.
   */
  email: pulumi.Input<string>;
  /**
   * The owner's phone number in the registries' form `+<country code>.<number>`, for example `+62.8123456789`. Personal data.
   * - Rule: +<country code>.<number>, for example +62.8123456789 (the registries' form, RFC 5733).
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   * - Secret: stored encrypted, never printed.
   */
  phone: pulumi.Input<string>;
  /**
   * The owner's street address. Personal data.
   * - Rule: must not be empty: address is required for a registration; at most 255 characters.
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   * - Secret: stored encrypted, never printed.
   */
  address: pulumi.Input<string>;
  /**
   * The owner's city.
   * - Rule: must not be empty: city is required for a registration; at most 255 characters.
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   */
  city: pulumi.Input<string>;
  /**
   * The owner's province or state.
   * - Rule: must not be empty: province is required for a registration; at most 255 characters.
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   */
  province: pulumi.Input<string>;
  /**
   * The owner's postal code. Personal data (with the street address it locates the owner).
   * - Rule: must not be empty: postalCode is required for a registration; at most 255 characters.
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   * - Secret: stored encrypted, never printed.
   */
  postalCode: pulumi.Input<string>;
  /**
   * The owner's country as a 2-letter code, for example `ID`; upper-cased.
   * - Rule: a 2-letter country code, for example ID (ISO 3166, as RFC 5733 has it).
   * - A change: updates in place (`PATCH /domains/registrant` with the changed fields).
   */
  country: pulumi.Input<string>;
}

/** The outputs of {@link DomainRegistrant}: every argument as applied, and what the API makes. */
export interface DomainRegistrantOutputs {
  /** The owner's full name. */
  readonly name: pulumi.Output<string>;
  /** The owner's organization, if any. Leaving it out clears it. */
  readonly organization: pulumi.Output<string | undefined>;
  /** The owner's contact address (`user@example.org`), lower-cased. Personal data. A secret output. */
  readonly email: pulumi.Output<string>;
  /** The owner's phone number in the registries' form `+<country code>.<number>`, for example `+62.8123456789`. Personal data. A secret output. */
  readonly phone: pulumi.Output<string>;
  /** The owner's street address. Personal data. A secret output. */
  readonly address: pulumi.Output<string>;
  /** The owner's city. */
  readonly city: pulumi.Output<string>;
  /** The owner's province or state. */
  readonly province: pulumi.Output<string>;
  /** The owner's postal code. Personal data (with the street address it locates the owner). A secret output. */
  readonly postalCode: pulumi.Output<string>;
  /** The owner's country as a 2-letter code, for example `ID`; upper-cased. */
  readonly country: pulumi.Output<string>;
  /** Whether the details are complete for a registration (every field but `organization` given). */
  readonly complete: pulumi.Output<boolean>;
}

// Every output, passed as an unset input (overridden by the args given) so the class has an Output for each whatever is left out; and the secret ones.
export const domainRegistrantOutputs = {
  computed: { name: undefined, organization: undefined, email: undefined, phone: undefined, address: undefined, city: undefined, province: undefined, postalCode: undefined, country: undefined, complete: undefined },
  secret: ["email", "phone", "address", "postalCode"] as string[],
};
