/**
 * `--state FILE` at a small size: when a change reaches the file (an answered write before its
 * answer leaves; other changes written behind, early enough to end within STATE_WRITE_DELAY_MS,
 * earlier as writes grow slow), the file's mode, and
 * the temp files a killed emulator leaves (removed at the next start). `tools/bench/state-durability.ts`
 * measures the same with an 8 MB world and 20 kill -9s.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { Emu, STATE_WRITE_DELAY_MS } from "../../emulator/core/emu";

const freshDir = () => mkdtempSync(join(tmpdir(), "svc-state-"));
const savedWallet = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { account: { wallet: number } }).account.wallet;

describe("the write-behind", () => {
  afterEach(() => jest.useRealTimers());

  test("a change reaches the file before STATE_WRITE_DELAY_MS; once writes cost time, the next starts that much earlier", () => {
    jest.useFakeTimers({ now: Date.parse("2026-03-01T00:00:00Z") });
    const file = join(freshDir(), "world.json");
    const emu = new Emu({ seed: 1, transitions: "immediate", dns: "auto", stateFile: file });
    emu.saveNow();
    const change = (wallet: number) => {
      emu.world.account.wallet = wallet;
      emu.save();
    };

    change(111);
    jest.advanceTimersByTime(STATE_WRITE_DELAY_MS - 101);
    expect(savedWallet(file)).not.toBe(111);
    jest.advanceTimersByTime(1);
    expect(savedWallet(file)).toBe(111);

    // A busy process: the write's timer fires 600 ms late. The change waited 1,500 ms: the next write
    // is due that much earlier, so that it too ends within the promise.
    change(222);
    jest.setSystemTime(Date.now() + 600);
    jest.advanceTimersByTime(STATE_WRITE_DELAY_MS - 100);
    expect(savedWallet(file)).toBe(222);
    change(333);
    jest.advanceTimersByTime(STATE_WRITE_DELAY_MS - 100 - 600 - 1);
    expect(savedWallet(file)).not.toBe(333);
    jest.advanceTimersByTime(1);
    expect(savedWallet(file)).toBe(333);
    emu.close();
  });

  test("the file is the user's only (mode 0600), also when an old temp file of this process had another mode", () => {
    const file = join(freshDir(), "world.json");
    writeFileSync(`${file}.${process.pid}.tmp`, "old", { mode: 0o644 });
    const emu = new Emu({ seed: 1, transitions: "immediate", dns: "auto", stateFile: file });
    emu.saveNow();
    emu.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(file, ".."))).toEqual(["world.json"]);
  });
});

describe("an answered change", () => {
  test("is in the file when its 2xx answer arrives, for each of 12 concurrent writes (they share the writes)", async () => {
    const file = join(freshDir(), "world.json");
    const emu = await startEmulator({ port: 0, stateFile: file });
    const origin = emu.urls.email;
    try {
      const add = async (i: number) => {
        // Two keys of the same project: 12 writes stay within the per-key limit of 10.
        const key = i % 2 ? emu.keys.email : emu.keys.account;
        const res = await fetch(`${origin}/contacts`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-svc-project": emu.projects[0] },
          body: JSON.stringify({ consentConfirmed: true, contacts: [{ email: `answered-${i}@example.org` }] }),
        });
        expect(res.status).toBe(201);
        // Read the moment the answer arrived: no write-behind has run in between.
        return readFileSync(file, "utf8").includes(`"answered-${i}@example.org"`);
      };
      expect(await Promise.all(Array.from({ length: 12 }, (_, i) => add(i)))).toEqual(Array(12).fill(true));
    } finally {
      await emu.close();
    }
  });
});

describe("temp files a kill left behind", () => {
  /** A pid no process has (the kernel's default pid_max is 4,194,304 at most). */
  const deadPid = 4_194_304 + 17;

  test("are removed when the emulator starts on the file; a live process's temp file is left to it", async () => {
    const dir = freshDir();
    const file = join(dir, "world.json");
    const first = await startEmulator({ port: 0, stateFile: file });
    await first.close();
    const keys = readFileSync(file, "utf8");
    // What a kill -9 mid-write leaves: a temp file holding the world, keys in clear.
    writeFileSync(`${file}.${deadPid}.tmp`, keys, { mode: 0o600 });
    writeFileSync(`${file}.${process.ppid}.tmp`, "{}", { mode: 0o600 });
    writeFileSync(join(dir, "world.json.notes"), "not ours");
    const second = await startEmulator({ port: 0, stateFile: file });
    try {
      expect(readdirSync(dir).sort()).toEqual(["world.json", `world.json.${process.ppid}.tmp`, "world.json.notes"].sort());
      expect(second.keys.account).toBe(first.keys.account);
    } finally {
      await second.close();
    }
  });
});
