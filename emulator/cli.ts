#!/usr/bin/env node
/**
 * `svc-emulator`: starts the platform emulator and prints `export SVC_...=` lines a shell can eval:
 *   eval "$(npx svc-emulator --port 4010 &)"   or   npx svc-emulator > /tmp/svc.env &
 */
import { parseArgs } from "node:util";
import { startEmulator } from "./index";

const usage = `usage: svc-emulator [--port 4010] [--host 127.0.0.1] [--state FILE]
                    [--transitions immediate|time|manual] [--transition-seconds N]
                    [--dns auto|manual] [--seed N] [--allow-local-webhooks]

  --allow-local-webhooks  accept email webhooks on loopback (http://127.0.0.1:PORT/...) and deliver
                          events to them, for a local receiver; other private addresses stay refused`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string", default: "127.0.0.1" },
      state: { type: "string" },
      transitions: { type: "string", default: "immediate" },
      "transition-seconds": { type: "string" },
      dns: { type: "string", default: "auto" },
      seed: { type: "string", default: "1" },
      "allow-local-webhooks": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const transitions = values.transitions as string;
  if (!["immediate", "time", "manual"].includes(transitions)) throw new Error(`--transitions must be immediate, time or manual\n${usage}`);
  if (!["auto", "manual"].includes(values.dns as string)) throw new Error(`--dns must be auto or manual\n${usage}`);
  const emulator = await startEmulator({
    port: Number(values.port),
    host: values.host,
    stateFile: values.state,
    transitions: transitions as "immediate" | "time" | "manual",
    transitionSeconds: values["transition-seconds"] === undefined ? undefined : Number(values["transition-seconds"]),
    dns: values.dns as "auto" | "manual",
    seed: Number(values.seed),
    allowLocalWebhooks: values["allow-local-webhooks"] === true,
  });
  const { urls, keys, projects, secondAccountProject } = emulator;
  const lines = [
    `# svc emulator listening; control API: ${urls.control}`,
    `export SVC_API_URL=${urls.api}`,
    `export SVC_EMAIL_URL=${urls.email}`,
    `export SVC_AI_URL=${urls.ai}`,
    `export SVC_API_KEY=${keys.account}`,
    `export SVC_EMAIL_API_KEY=${keys.email}`,
    `export SVC_PROJECT_ID=${projects[0]}`,
    `# other seeded keys and projects, for trying the error paths`,
    `export SVC_PROJECT_KEY=${keys.project}`,
    `export SVC_NO_VPS_KEY=${keys.noVps}`,
    `export SVC_VPS_ONLY_KEY=${keys.vpsOnly}`,
    `export SVC_EXPIRED_KEY=${keys.expired}`,
    `export SVC_REVOKED_KEY=${keys.revoked}`,
    `export SVC_EMAIL_API_KEY_NO_PLAN=${keys.emailNoPlan}`,
    `export SVC_PROJECT_ID_NO_PLAN=${projects[1]}`,
    `# a second account (its own wallet, project and keys), reached through the profile "client"`,
    `export SVC_PROFILE_CLIENT_API_KEY=${keys.secondAccount}`,
    `export SVC_PROFILE_CLIENT_EMAIL_API_KEY=${keys.secondEmail}`,
    `export SVC_PROFILE_CLIENT_PROJECT_ID=${secondAccountProject}`,
  ];
  console.log(lines.join("\n"));
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: Error) => {
  console.error(`svc-emulator: ${err.message}`);
  process.exit(1);
});
