/**
 * The suppression list through the API (issue 36; assumed-routes.md "Suppressions"; email-service.md
 * "manage suppressions", SUPPRESSION_NOT_FOUND, Limits "Page size `limit`: suppressions | 1 to 500,
 * default 100"): add (201, and 200 with the existing row on a repeat), read, list by pages, delete;
 * a listed address is refused on send (RECIPIENT_SUPPRESSED), matched case-insensitively.
 */
import { FROM, ok, refused, type Api, useSendingEmulator } from "./helpers";

let api: Api;
useSendingEmulator((a) => (api = a));

const add = (email: string, reason?: string) => api("POST", "/suppressions", { body: { email, ...(reason ? { reason } : {}) } });

test("POST adds the address lower-cased with reason manual (201); a repeat answers the same row (200) and lists it once", async () => {
  const first = ok(await add("Ana@Acme-Customer.dev"), 201);
  expect(first).toEqual({ email: "ana@acme-customer.dev", reason: "manual", createdAt: expect.any(String) });
  expect(ok(await add("ana@acme-customer.dev"), 200)).toEqual(first);
  expect(ok(await api("GET", "/suppressions"), 200)).toEqual({ data: [first], nextCursor: null });
});

test("a repeat keeps the platform's reason: a bounced address stays `bounce`", async () => {
  await api.emu.ctl("POST", "/email/suppressions", { email: "b@acme-customer.dev", reason: "bounce" });
  expect(ok(await add("B@acme-customer.dev"), 200)).toMatchObject({ email: "b@acme-customer.dev", reason: "bounce" });
});

test("GET /suppressions/{email} answers the row, matched case-insensitively; an address not listed is 404 SUPPRESSION_NOT_FOUND", async () => {
  await add("ana@acme-customer.dev");
  expect(ok(await api("GET", `/suppressions/${encodeURIComponent("ANA@acme-customer.dev")}`), 200)).toMatchObject({ email: "ana@acme-customer.dev" });
  refused(await api("GET", `/suppressions/${encodeURIComponent("bo@acme-customer.dev")}`), 404, "SUPPRESSION_NOT_FOUND");
});

test("DELETE takes it off the list; a second DELETE is 404 SUPPRESSION_NOT_FOUND; the address may be sent to again", async () => {
  await add("ana@acme-customer.dev");
  refused(await api("POST", "/send", { body: { from: FROM, to: ["Ana@acme-customer.dev"], subject: "Hi", text: "Hello" } }), 403, "RECIPIENT_SUPPRESSED");
  expect(ok(await api("DELETE", `/suppressions/${encodeURIComponent("ana@acme-customer.dev")}`), 200)).toEqual({ deleted: true });
  refused(await api("DELETE", `/suppressions/${encodeURIComponent("ana@acme-customer.dev")}`), 404, "SUPPRESSION_NOT_FOUND");
  ok(await api("POST", "/send", { body: { from: FROM, to: ["ana@acme-customer.dev"], subject: "Hi", text: "Hello" } }), 202);
});

test("a malformed address is 400 INVALID_EMAIL; an unknown reason is 422 VALIDATION; nothing is listed", async () => {
  refused(await add("not-an-address"), 400, "INVALID_EMAIL");
  refused(await add("ana@acme-customer.dev", "spam"), 422, "VALIDATION");
  expect(ok(await api("GET", "/suppressions"), 200)).toEqual({ data: [], nextCursor: null });
});

test("pages: default 100, at most 500, newest first; the cursor reads the next page; limit 501 is 422 VALIDATION", async () => {
  for (let i = 0; i < 105; i++) await api.emu.ctl("POST", "/email/suppressions", { email: `user${i}@acme-customer.dev` });
  const first = ok(await api("GET", "/suppressions"), 200);
  expect(first.data).toHaveLength(100);
  expect(first.data[0].email).toBe("user104@acme-customer.dev");
  const second = ok(await api("GET", `/suppressions?cursor=${encodeURIComponent(first.nextCursor)}`), 200);
  expect(second.data.map((r: { email: string }) => r.email)).toEqual(["user4", "user3", "user2", "user1", "user0"].map((u) => `${u}@acme-customer.dev`));
  expect(second.nextCursor).toBeNull();
  expect(ok(await api("GET", "/suppressions?limit=500"), 200).data).toHaveLength(105);
  refused(await api("GET", "/suppressions?limit=501"), 422, "VALIDATION");
});
