/**
 * shouldRetry is a pure function of the failure and the route: the whole retry rule in one table.
 */
import { routes, shouldRetry, type ApiErrorInit, type Failure } from "../../provider/client";

const failure = (error: Partial<ApiErrorInit>, notSent = false): Failure => ({
  error: { service: "platform", method: "GET", path: "/x", code: "INTERNAL_ERROR", apiMessage: "x", retryable: false, ...error },
  notSent,
});

const read = routes["vps.get"];
const paid = routes["vps.create"];
const idempotent = routes["email.domains.verify"];

test.each([
  ["a 429 on a paid route", "rate-limited", failure({ status: 429, retryable: true }), paid],
  ["a 503 on a read", "retry", failure({ status: 503, retryable: true }), read],
  ["a 503 on an idempotent call", "retry", failure({ status: 503, retryable: true }), idempotent],
  ["a 503 on a paid route: it may have been carried out", "outcome-unknown", failure({ status: 503, retryable: true }), paid],
  ["no answer on a paid route", "outcome-unknown", failure({ code: "NETWORK_ERROR", retryable: true }), paid],
  ["an unreadable 201 on a paid route", "outcome-unknown", failure({ status: 201, code: "BAD_RESPONSE" }), paid],
  ["a refused connection on a paid route: the request never left", "retry", failure({ code: "NETWORK_ERROR", retryable: true }, true), paid],
  ["a 422 on a read", "fail", failure({ status: 422, code: "VALIDATION_ERROR" }), read],
  ["a 409 on a paid route", "fail", failure({ status: 409, code: "INSUFFICIENT_BALANCE" }), paid],
] as const)("%s: %s", (_what, verdict, f, route) => {
  expect(shouldRetry(f, route)).toBe(verdict);
});
