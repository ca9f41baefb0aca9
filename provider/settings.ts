/**
 * The provider's settings: each one's stack config key, environment variable, whether it is a
 * secret, and what it is. Its own module, importing nothing: the package exports it, and its public
 * declarations must not reach the client's (zod) types.
 */
export const settingDefs = {
  apiKey: { config: "svc:apiKey", env: "SVC_API_KEY", secret: true, what: "the platform API key (servers, domains; accepted by email too)" },
  emailApiKey: { config: "svc:emailApiKey", env: "SVC_EMAIL_API_KEY", secret: true, what: "the email API key" },
  apiUrl: { config: "svc:apiUrl", env: "SVC_API_URL", secret: false, what: "the platform API base URL" },
  emailUrl: { config: "svc:emailUrl", env: "SVC_EMAIL_URL", secret: false, what: "the email API base URL" },
  aiApiKey: { config: "svc:aiApiKey", env: "SVC_AI_API_KEY", secret: true, what: "the AI gateway key (default: the platform API key, which needs the AI product)" },
  aiUrl: { config: "svc:aiUrl", env: "SVC_AI_URL", secret: false, what: "the AI gateway base URL" },
  projectId: { config: "svc:projectId", env: "SVC_PROJECT_ID", secret: false, what: "the project id" },
  requestTimeoutSeconds: { config: "svc:requestTimeoutSeconds", env: "SVC_REQUEST_TIMEOUT_SECONDS", secret: false, what: "the whole-request timeout in seconds (default 60)" },
  log: { config: "svc:log", env: "SVC_LOG", secret: false, what: "the provider's log: debug writes one line per request, retry, wait and adoption decision to stderr (provider/log.ts)" },
} as const;
