/**
 * One emulator + one real provider host configured against it, for resource tests: the emulator is
 * the API, the host is what `pulumi up` talks to, the `__provider` comes from a real program.
 */
import { startTestEmulator, type TestEmulator } from "./emulator";
import { serializedProviders, startProviderHost, stackConfig, type ProviderHost } from "./provider-host";
import type { EmulatorOptions } from "../../emulator";

import type { Props } from "./world";

export interface ResourceHarness {
  emu: TestEmulator;
  host: ProviderHost;
  /** Program inputs of one resource, with the `__provider` a user's program would produce. */
  inputs(type: string, args: Props): Promise<Props>;
  /**
   * The calls after this are another deployment's. Under the CLI each deployment is a provider process
   * of its own; here one host serves a whole file. The provider keeps what a deployment's calls told it
   * (provider/runtime.ts) until its configuration changes: the host is configured anew with the
   * deployment's number, and the inputs carry a provider text of their own (a comment naming it), since
   * the host configures each provider text once.
   */
  newDeployment(): Promise<void>;
  /** check(olds, news) of the program inputs `args`, as the engine sends it; answers the host's result, failures included. */
  check(type: string, args: Props, olds?: Props): ReturnType<ProviderHost["check"]>;
  /** check(olds={}, news) that must pass; answers the checked inputs. */
  checked(type: string, args: Props, olds?: Props): Promise<Props>;
  /** Write calls (not GET) the emulator received since the last `clearRequests()`. */
  writes(): { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

export interface HarnessOptions extends EmulatorOptions {
  /** Which key the provider is configured with (default: the whole-account platform key + the email key). */
  config?: (emu: TestEmulator) => Record<string, string>;
}

export async function startResourceHarness(options: HarnessOptions = {}): Promise<ResourceHarness> {
  const { config, ...emulatorOptions } = options;
  const emu = await startTestEmulator(emulatorOptions);
  // One host for the whole file, where the CLI starts one per operation, while the tests change and
  // reset the world between calls: list answers are not reused from one call to the next.
  const host = await startProviderHost({ env: { SVC_READ_REUSE_MS: "0" } });
  const stack =
    config?.(emu) ?? stackConfig({ apiUrl: emu.urls.api, emailUrl: emu.urls.email, apiKey: emu.keys.account, emailApiKey: emu.keys.email, projectId: emu.projects[0] });
  await host.configure(stack);
  const providerOf = serializedProviders();
  let deployment = 0;
  const inputs = async (type: string, args: Props) => ({ ...args, __provider: `${await providerOf(type, args)}\n// deployment ${deployment}` });
  const check = async (type: string, args: Props, olds: Props = {}) => host.check(type, olds, await inputs(type, args));
  return {
    emu,
    host,
    inputs,
    async newDeployment() {
      deployment++;
      await host.configure({ ...stack, "harness:deployment": String(deployment) });
    },
    check,
    async checked(type, args, olds = {}) {
      const result = await check(type, args, olds);
      if (result.failures.length) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
      return result.inputs;
    },
    writes: () => emu.control.requests().filter((r) => r.method !== "GET").map((r) => ({ method: r.method, path: r.path, status: r.status })),
    async close() {
      await host.stop();
      await emu.close();
    },
  };
}

/** What a create, update or read answered, without the serialized provider (for comparisons). */
export function outputsOf(props: Props): Props {
  const { __provider: _p, ...rest } = props;
  return rest;
}

/** Catches the error of a promise that must fail. */
export async function failure<T extends Error = Error>(promise: Promise<unknown>): Promise<T> {
  try {
    await promise;
  } catch (err) {
    return err as T;
  }
  throw new Error("expected the call to fail, it succeeded");
}
