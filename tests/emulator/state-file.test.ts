/**
 * `--state FILE` at a small size: when a change reaches the file (an answered write before its
 * answer leaves; other changes written behind, early enough to end within STATE_WRITE_DELAY_MS,
 * earlier as writes grow slow), the file's mode, and
 * the temp files a killed emulator leaves (removed at the next start). `tools/bench/state-durability.ts`
 * measures the same with an 8 MB world and 20 kill -9s.
 */
import crypto from "node:crypto";
import { closeSync, lstatSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { createStateTemp, Emu, STATE_WRITE_DELAY_MS } from "../../emulator/core/emu";

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

  test("the file is the user's only (mode 0600); the save leaves no temp file", () => {
    const file = join(freshDir(), "world.json");
    const emu = new Emu({ seed: 1, transitions: "immediate", dns: "auto", stateFile: file });
    emu.saveNow();
    emu.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(file, ".."))).toEqual(["world.json"]);
  });
});

// The temp file a save writes holds every key in clear, and is renamed over the state file: a link
// planted at its name would receive the world, and the rename would make the state file that link.
describe("a file or symlink planted where the writer may write", () => {
  /** A file elsewhere that a planted link points at, and what it holds before. */
  function victim(): { path: string; text: string } {
    const path = join(freshDir(), "victim.txt");
    writeFileSync(path, "the victim's own text\n", { mode: 0o644 });
    return { path, text: readFileSync(path, "utf8") };
  }
  const tokens = (...values: string[]) => {
    let i = 0;
    return () => values[Math.min(i++, values.length - 1)];
  };
  const hex = (c: string) => c.repeat(32);

  test("createStateTemp never opens an existing name: a symlink and a regular file at the names it draws are passed over, untouched", () => {
    const dir = freshDir();
    const file = join(dir, "world.json");
    const target = victim();
    const linked = `${file}.${process.pid}.${hex("a")}.tmp`;
    const regular = `${file}.${process.pid}.${hex("b")}.tmp`;
    symlinkSync(target.path, linked);
    writeFileSync(regular, "planted", { mode: 0o644 });

    const temp = createStateTemp(file, tokens(hex("a"), hex("b"), hex("c")));
    closeSync(temp.fd);

    expect(temp.path).toBe(`${file}.${process.pid}.${hex("c")}.tmp`);
    expect(statSync(temp.path).mode & 0o777).toBe(0o600);
    expect(lstatSync(linked).isSymbolicLink()).toBe(true);
    expect(readFileSync(target.path, "utf8")).toBe(target.text);
    expect(readFileSync(regular, "utf8")).toBe("planted");
  });

  test("when every name it draws is taken, it fails (EEXIST) and writes nothing", () => {
    const dir = freshDir();
    const file = join(dir, "world.json");
    const target = victim();
    symlinkSync(target.path, `${file}.${process.pid}.${hex("d")}.tmp`);
    expect(() => createStateTemp(file, () => hex("d"))).toThrow(expect.objectContaining({ code: "EEXIST" }));
    expect(readFileSync(target.path, "utf8")).toBe(target.text);
    expect(readdirSync(dir)).toEqual([`world.json.${process.pid}.${hex("d")}.tmp`]);
  });

  test("a save, with links at the temp name it draws, at the old predictable name and at the state file itself, writes through none: the state file ends a regular file holding the world", () => {
    const dir = freshDir();
    const file = join(dir, "world.json");
    const target = victim();
    // The random part the save will draw first (then the real generator).
    const draw = jest.spyOn(crypto, "randomBytes").mockImplementationOnce(() => Buffer.alloc(16, 0xee));
    const planted = [`${file}.${process.pid}.${hex("e")}.tmp`, `${file}.${process.pid}.tmp`, file];
    for (const name of planted) symlinkSync(target.path, name);
    try {
      const emu = new Emu({ seed: 1, transitions: "immediate", dns: "auto", stateFile: file });
      emu.world.account.wallet = 4242;
      emu.saveNow();
      emu.close();
      expect(draw).toHaveBeenCalled();
    } finally {
      draw.mockRestore();
    }
    expect(readFileSync(target.path, "utf8")).toBe(target.text);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(savedWallet(file)).toBe(4242);
    // The planted temp-name links are still links (never opened, never renamed); nothing else was left.
    for (const name of planted.slice(0, 2)) expect(lstatSync(name).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["world.json", `world.json.${process.pid}.${hex("e")}.tmp`, `world.json.${process.pid}.tmp`].sort());
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
    writeFileSync(`${file}.${deadPid}.${"0f".repeat(16)}.tmp`, keys, { mode: 0o600 });
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
