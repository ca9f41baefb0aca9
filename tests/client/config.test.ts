/**
 * Configuration (provider/config.ts) and what the resulting clients send, checked on a real server.
 */
import { ApiClient } from "../../provider/client";
import {
  emailClient,
  MissingSettingError,
  platformClient,
  requireSetting,
  resolveSettings,
  type ConfigSource,
} from "../../provider/config";
import { freshKey, reply, startServer, type TestServer } from "../support/http-server";

let server: TestServer;
const clients: ApiClient[] = [];
const keep = (c: ApiClient) => (clients.push(c), c);

beforeEach(async () => {
  server = await startServer(() => reply.ok([]));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

const stack = (values: Record<string, string>): ConfigSource => ({ get: (key) => values[key] });

describe("resolveSettings", () => {
  test("stack config wins over the environment", () => {
    const settings = resolveSettings(stack({ "svc:apiKey": "from-stack", "svc:apiUrl": "https://stack.example/api" }), {
      SVC_API_KEY: "from-env",
      SVC_API_URL: "https://env.example/api",
      SVC_PROJECT_ID: "proj-env",
    });

    expect(settings.apiKey).toBe("from-stack");
    expect(settings.apiUrl).toBe("https://stack.example/api");
    // Not in stack config: the environment fills it.
    expect(settings.projectId).toBe("proj-env");
  });

  test("the environment alone is enough; nothing set leaves the setting out", () => {
    expect(resolveSettings(undefined, { SVC_EMAIL_API_KEY: "ek" })).toEqual({ emailApiKey: "ek" });
    expect(resolveSettings(stack({}), {})).toEqual({});
  });
});

describe("missing settings", () => {
  test("the message names both the stack config key and the environment variable", () => {
    expect(() => requireSetting({}, "apiKey")).toThrow(MissingSettingError);
    expect(() => requireSetting({}, "apiKey")).toThrow(/svc:apiKey/);
    expect(() => requireSetting({}, "apiKey")).toThrow(/SVC_API_KEY/);
    expect(() => requireSetting({}, "apiKey")).toThrow(/pulumi config set --secret svc:apiKey/);
  });

  test("platformClient without a key, emailClient without any key", () => {
    expect(() => platformClient({ apiUrl: server.baseUrl })).toThrow(/svc:apiKey.*SVC_API_KEY/);
    expect(() => platformClient({ apiKey: "k-123456" })).toThrow(/svc:apiUrl.*SVC_API_URL/);
    expect(() => emailClient({ emailUrl: server.baseUrl })).toThrow(/svc:emailApiKey.*SVC_EMAIL_API_KEY/);
  });
});

describe("what the clients send", () => {
  test("platform client: Authorization: Bearer <key>, no project header", async () => {
    const key = freshKey("platform");
    const c = keep(platformClient(resolveSettings(stack({ "svc:apiKey": key, "svc:apiUrl": server.baseUrl }), {})));

    await c.call("vps.list");

    expect(server.requests[0].headers.authorization).toBe(`Bearer ${key}`);
    expect(server.requests[0].headers.accept).toBe("application/json");
    expect(server.requests[0].headers["x-svc-project"]).toBeUndefined();
  });

  test("emailClient with only a platform key and a projectId sends X-Svc-Project", async () => {
    const key = freshKey("platform");
    const c = keep(emailClient({ apiKey: key, projectId: "proj-42", emailUrl: server.baseUrl }));

    await c.call("email.domains.list");

    expect(c.service).toBe("email");
    expect(server.requests[0]).toMatchObject({ method: "GET", path: "/domains" });
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${key}`);
    expect(server.requests[0].headers["x-svc-project"]).toBe("proj-42");
  });

  test("emailClient with an email key uses it and sends no X-Svc-Project, even with a platform key and project set", async () => {
    const emailKey = freshKey("email");
    const c = keep(emailClient({ emailApiKey: emailKey, apiKey: freshKey("platform"), projectId: "proj-42", emailUrl: server.baseUrl }));

    await c.call("email.domains.list");

    expect(server.requests[0].headers.authorization).toBe(`Bearer ${emailKey}`);
    expect(server.requests[0].headers["x-svc-project"]).toBeUndefined();
  });
});

describe("base URL", () => {
  const make = (baseUrl: string) => keep(new ApiClient({ service: "platform", baseUrl, apiKey: freshKey("url") }));

  test("plain http to a non-loopback host is refused at construction", () => {
    expect(() => make("http://example.com")).toThrow(/refusing the plain-http platform base URL http:\/\/example\.com/);
    expect(() => make("http://example.com/api")).toThrow(/Use https/);
    expect(() => make("http://10.0.0.5:8080/api")).toThrow(/plain-http/);
  });

  test("a host name that only starts like a loopback address is not loopback", () => {
    expect(() => make("http://127.0.0.1.example.com/api")).toThrow(/plain-http/);
    expect(() => make("http://127.attacker.test/api")).toThrow(/plain-http/);
  });

  test("plain http to loopback is fine, https to anything is fine", () => {
    expect(make("http://127.0.0.1:8080/api").baseUrl).toBe("http://127.0.0.1:8080/api");
    expect(make("http://127.3.4.5/api").baseUrl).toBe("http://127.3.4.5/api");
    // The URL parser normalizes short IPv4 forms before the check.
    expect(make("http://127.1:8080/api").baseUrl).toBe("http://127.0.0.1:8080/api");
    expect(make("http://localhost:3000/api/").baseUrl).toBe("http://localhost:3000/api");
    expect(make("http://[::1]:3000/api").baseUrl).toBe("http://[::1]:3000/api");
    expect(make("https://example.com/api").baseUrl).toBe("https://example.com/api");
    expect(make("https://10.0.0.5/api").baseUrl).toBe("https://10.0.0.5/api");
  });

  test("not a URL, or not http(s)", () => {
    expect(() => make("example.com/api")).toThrow(/is not a URL/);
    expect(() => make("ftp://example.com/api")).toThrow(/must be http\(s\)/);
  });
});

describe("request timeout setting", () => {
  test("svc:requestTimeoutSeconds shortens the whole-request timeout: a slow answer fails as TIMEOUT", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((_req, res) => setTimeout(() => res.end('{"success":true,"data":[]}'), 1500));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as { port: number }).port;
    const { platformClient, resolveSettings } = await import("../../provider/config");
    const settings = resolveSettings({ get: (k) => ({ "svc:apiUrl": `http://127.0.0.1:${port}/api`, "svc:apiKey": "svc_timeout_test_key", "svc:requestTimeoutSeconds": "0.3" })[k] }, {});
    const client = platformClient(settings, { retry: { attempts: 1 } });
    const started = Date.now();
    await expect(client.call("vps.list")).rejects.toMatchObject({ code: "TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(1400);
    await client.close();
    server.closeAllConnections();
    server.close();
  });
});
