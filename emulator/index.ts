/**
 * The platform emulator: `startEmulator()` for tests, `svc-emulator` on the command line.
 * One process serves the three bases on one port: `/api` (platform), `/email`, `/ai`.
 */
import { existsSync, readFileSync } from "node:fs";
import { buildApp } from "./core/app";
import type { EmulatorControl } from "./core/control";
import type { ServiceModule } from "./core/module";
import { Emu, removeStaleStateTemps, type DnsMode, type TransitionMode } from "./core/emu";
import type { FaultRuleInput, RequestLogEntry } from "./core/faults";
import { seededKeys, type SeededKeys } from "./core/seed";
import { projectsOfAccount, type World } from "./core/world";
import { accountModule } from "./account";
import { aiModule } from "./ai";
import { domainsModule } from "./domains";
import { emailModule } from "./email";
import { vpsModule } from "./vps";

export type { SeededKeys, World, FaultRuleInput, RequestLogEntry, TransitionMode, DnsMode };
export { Emu };

export const serviceModules: ServiceModule[] = [accountModule, emailModule, vpsModule, domainsModule, aiModule];

export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** Load the world from this file at start (if it exists) and save it after every change. */
  stateFile?: string;
  transitions?: TransitionMode;
  /** In `time` mode, every transition takes this many seconds instead of its realistic delay. */
  transitionSeconds?: number;
  dns?: DnsMode;
  seed?: number;
  /**
   * Accept email webhooks on loopback (`http://127.0.0.1:…`, `http://localhost:…`, https too) and
   * deliver to them: for local receivers. Private and other internal addresses stay refused.
   */
  allowLocalWebhooks?: boolean;
}

export interface EmulatorUrls {
  api: string;
  email: string;
  ai: string;
  control: string;
}

/** Direct access to the control operations, without HTTP (the same ones `/_emulator` runs). */
export type { EmulatorControl } from "./core/control";

export interface RunningEmulator {
  urls: EmulatorUrls;
  keys: SeededKeys;
  /** Ids of the first account's projects: `[0]` has email on the free plan, `[1]` has email without a plan. */
  projects: string[];
  /** The second account's one project (email on the free plan); its keys are `keys.secondAccount` and `keys.secondEmail`. */
  secondAccountProject: string;
  control: EmulatorControl;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = new Emu({
    seed: options.seed ?? 1,
    transitions: options.transitions ?? "immediate",
    transitionSeconds: options.transitionSeconds,
    dns: options.dns ?? "auto",
    stateFile: options.stateFile,
    allowLocalWebhooks: options.allowLocalWebhooks ?? false,
  });
  // A temp file a killed emulator left holds every key in clear: it goes before anything else.
  if (options.stateFile) removeStaleStateTemps(options.stateFile);
  if (options.stateFile && existsSync(options.stateFile)) {
    const text = readFileSync(options.stateFile, "utf8");
    emu.load(JSON.parse(text) as World, text);
  }
  const { app, control } = buildApp(emu, serviceModules);
  const host = options.host ?? "127.0.0.1";
  await app.listen({ port: options.port ?? 4010, host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  // A new state file is written at once; one loaded unchanged is not written again (a restart costs one read).
  if (!emu.stateWritten) emu.saveNow();
  return {
    urls: { api: `${origin}/api`, email: `${origin}/email`, ai: `${origin}/ai`, control: `${origin}/_emulator` },
    keys: seededKeys(emu.world),
    projects: projectsOfAccount(emu.world, emu.world.account).map((p) => p.id),
    secondAccountProject: projectsOfAccount(emu.world, emu.world.otherAccounts![0])[0].id,
    control,
    close: async () => {
      // Timers of background transitions and webhook deliveries first: nothing keeps the process alive.
      emu.close();
      await app.close();
    },
  };
}
