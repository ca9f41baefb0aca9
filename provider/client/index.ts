export * from "./backoff";
export * from "./decode";
export * from "./errors";
export * from "./http";
export * from "./poller";
export * from "./rate-limit";
export * from "./retry-budget";
export * from "../../contract/routes";
export * as schemas from "../../contract/schemas";
