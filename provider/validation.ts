import { z } from "zod";

/**
 * Host and domain name rules the resources share (checked at preview, before any call).
 */

/** One DNS label: 1 to 63 letters, digits or inner hyphens (lower case). */
export const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A public top-level label: letters, or an internationalized one in its punycode `xn--` form. */
export const TOP_LEVEL_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A lower-cased fully-qualified name: two labels or more, the last a TOP_LEVEL_LABEL, at most 253 characters. */
export function isFullyQualified(name: string): boolean {
  if (name.length < 1 || name.length > 253) return false;
  const labels = name.split(".");
  return labels.length >= 2 && labels.slice(0, -1).every((label) => DNS_LABEL.test(label)) && TOP_LEVEL_LABEL.test(labels[labels.length - 1]);
}

/** `user@host.tld`, lower-cased. */
export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(320, "at most 320 characters")
  .refine((text) => {
    const at = text.lastIndexOf("@");
    return at > 0 && at <= 64 && /^[^\s@<>"(),;:\\[\]]+$/.test(text.slice(0, at)) && isFullyQualified(text.slice(at + 1));
  }, "must be an email address (user@example.org)");

/** Top-level names that never resolve on the public internet: the email API refuses them (one list, contract/hosts.ts). */
export { nonPublicTldProblem } from "../contract/hosts";
