/**
 * The route table's plain words: which API and which HTTP method. Kept apart from the table (which
 * is zod) because the package's public error types name them, and a program's declarations must
 * not reach zod's (see sdk/generated/data-types.ts).
 */
export type Service = "email" | "platform" | "ai";
export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
