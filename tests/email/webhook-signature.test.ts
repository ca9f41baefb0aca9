/**
 * Issue 4, acceptance 6: `verifyWebhookSignature` (as users import it from `pulumi-svc`)
 * accepts a `Svc-Signature` made by the real `openssl dgst -sha256 -hmac` over `<t>.<raw body>`,
 * and rejects a changed body, a wrong secret and a stale timestamp, each with a clear reason.
 */
import { execFileSync } from "node:child_process";
import { verifyWebhookSignature } from "../../sdk";

const SECRET = "whsec_5f1c0a9e7b3d4c2a8e6f0b1d3c5a7e9f2b4d6c8a0e1f3b5d7c9a2e4f6b8d0c1a";
const BODY = '{"type":"email.delivered","createdAt":"2025-01-02T03:04:05.678Z","data":{"to":["zoë@example.com"],"subject":"Ünïcode ✓"}}';
const T = 1_735_787_045; // a fixed signing time (unix seconds)

/** The hex HMAC-SHA256 the real openssl binary computes over `text` with `secret`. */
function opensslHmac(secret: string, text: string | Buffer): string {
  const out = execFileSync("openssl", ["dgst", "-sha256", "-hmac", secret], { input: text }).toString();
  const match = /([0-9a-f]{64})\s*$/.exec(out);
  if (!match) throw new Error(`unexpected openssl output: ${out}`);
  return match[1];
}

const header = (t: number, body = BODY, secret = SECRET) => `t=${t},v1=${opensslHmac(secret, `${t}.${body}`)}`;
const at = (seconds: number) => ({ now: seconds * 1000 });

describe("verifyWebhookSignature against openssl", () => {
  test("accepts a signature made by openssl over the same text, as a string or raw bytes", () => {
    const signature = header(T);
    expect(verifyWebhookSignature(BODY, signature, SECRET, at(T + 5))).toEqual({ valid: true, timestamp: T });
    expect(verifyWebhookSignature(Buffer.from(BODY, "utf8"), signature, SECRET, at(T + 5))).toEqual({ valid: true, timestamp: T });
    // Spaces after the comma and a second (rotated) v1 signature are fine too.
    const [t, v1] = signature.split(",");
    expect(verifyWebhookSignature(BODY, `${t}, v1=${"0".repeat(64)}, ${v1}`, SECRET, at(T))).toMatchObject({ valid: true });
  });

  test("accepts a fresh signature with the default clock", () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhookSignature(BODY, header(now), SECRET)).toEqual({ valid: true, timestamp: now });
  });

  test("rejects a changed body", () => {
    const result = verifyWebhookSignature(BODY.replace("delivered", "bounced"), header(T), SECRET, at(T + 5));
    expect(result).toEqual({ valid: false, reason: "signature does not match the body and secret" });
  });

  test("rejects a wrong secret", () => {
    const result = verifyWebhookSignature(BODY, header(T), SECRET.replace(/a$/, "b"), at(T + 5));
    expect(result).toEqual({ valid: false, reason: "signature does not match the body and secret" });
    // …and a signature made with another secret.
    expect(verifyWebhookSignature(BODY, header(T, BODY, "whsec_other"), SECRET, at(T))).toMatchObject({ valid: false });
  });

  test("rejects a timestamp 301 s old (and one 301 s ahead); 300 s is still accepted", () => {
    expect(verifyWebhookSignature(BODY, header(T), SECRET, at(T + 301))).toEqual({
      valid: false,
      reason: "timestamp is 301 s old, beyond the 300 s tolerance",
    });
    expect(verifyWebhookSignature(BODY, header(T), SECRET, at(T - 301))).toEqual({
      valid: false,
      reason: "timestamp is 301 s in the future, beyond the 300 s tolerance",
    });
    expect(verifyWebhookSignature(BODY, header(T), SECRET, at(T + 300))).toMatchObject({ valid: true });
    expect(verifyWebhookSignature(BODY, header(T), SECRET, { now: (T + 301) * 1000, toleranceSeconds: 600 })).toMatchObject({ valid: true });
  });

  test("a signature over the body without its timestamp (or with another timestamp) does not verify", () => {
    const bodyOnly = `t=${T},v1=${opensslHmac(SECRET, BODY)}`;
    expect(verifyWebhookSignature(BODY, bodyOnly, SECRET, at(T))).toMatchObject({ valid: false, reason: "signature does not match the body and secret" });
    const [, v1] = header(T).split(",");
    expect(verifyWebhookSignature(BODY, `t=${T + 1},${v1}`, SECRET, at(T))).toMatchObject({ valid: false });
  });

  test.each([
    ["no header", undefined, "no Svc-Signature header"],
    ["no timestamp", `v1=${"a".repeat(64)}`, "the header has no valid t=<unix seconds> timestamp"],
    ["a timestamp that is not a number", `t=soon,v1=${"a".repeat(64)}`, "the header has no valid t=<unix seconds> timestamp"],
    ["no v1 signature", `t=${T}`, "the header has no v1=<hex> signature"],
    ["a signature that is not hex", `t=${T},v1=${"z".repeat(64)}`, "signature does not match the body and secret"],
    ["a truncated signature", `t=${T},v1=abcd`, "signature does not match the body and secret"],
  ])("rejects %s with a clear reason", (_label, signature, reason) => {
    expect(verifyWebhookSignature(BODY, signature, SECRET, at(T))).toEqual({ valid: false, reason });
  });
});
