/**
 * The seeded world: deterministic for a given seed (ids and keys come from a seeded generator).
 */
import { Rng } from "./rng";
import type { KeyRecord, Project, World } from "./world";
import { allProducts } from "./world";

export const PLATFORM_KEY_PREFIX = "svc_";
export const EMAIL_KEY_PREFIX = "svcm_";
/** Subscription date of the seeded email plans: the monthly quota window starts on the 15th. */
export const EMAIL_SUBSCRIBED_AT = "2025-01-15T00:00:00.000Z";

/** The seeded keys by role; `startEmulator` hands them to tests and the CLI prints them. */
export interface SeededKeys {
  /** Whole-account platform key with every product. */
  account: string;
  /** Platform key limited to the first project. */
  project: string;
  /** Whole-account platform key without the VPS product. */
  noVps: string;
  /** Whole-account platform key with the VPS product only (no Domain, no Email). */
  vpsOnly: string;
  expired: string;
  revoked: string;
  /** Email key of the first project (free plan). */
  email: string;
  /** Email key of the second project (email set up, no plan). */
  emailNoPlan: string;
  /** Whole-account platform key of the second account (every product). */
  secondAccount: string;
  /** Email key of the second account's project (free plan). */
  secondEmail: string;
}

/** The second account's seeded wallet (the first has 50,000,000). */
const SECOND_ACCOUNT_WALLET = 20_000_000;

const keyRecord = (k: Omit<KeyRecord, "expiresAt" | "revoked"> & Partial<KeyRecord>): KeyRecord => ({ expiresAt: null, revoked: false, ...k });

/** A project's email set up and on the free plan (the first account's first project, the second account's one). */
const emailOnFreePlan = (): Project["email"] => ({
  enabled: true,
  sendingEnabled: true,
  plan: { name: "free", emailsPerDay: 100, emailsPerMonth: 3000, domains: 5, templates: 50, webhooks: 50, paygRate: null },
  subscribedAt: EMAIL_SUBSCRIBED_AT,
  paygEnabled: false,
  tenantPaused: false,
});

export function seedWorld(seed: number): World {
  const rng = new Rng(seed);
  const projectA = rng.uuid();
  const projectB = rng.uuid();
  const platformKey = () => PLATFORM_KEY_PREFIX + rng.hex(48);
  const emailKey = () => EMAIL_KEY_PREFIX + rng.hex(48);

  const linux = [
    { osType: "ubuntu", osVersion: "22.04" },
    { osType: "ubuntu", osVersion: "24.04" },
    { osType: "debian", osVersion: "12" },
    { osType: "almalinux", osVersion: "9" },
  ];
  const prices = (monthly: number) => ({
    monthly,
    "3month": Math.round(monthly * 3 * 0.97),
    "6month": Math.round(monthly * 6 * 0.95),
    yearly: Math.round(monthly * 12 * 0.9),
  });
  const plan = (name: string, family: string, region: string, cpu: number, memoryMb: number, diskGb: number, monthly: number, windows = false) => ({
    id: rng.uuid(),
    name,
    family,
    region,
    cpu,
    memoryMb,
    diskGb,
    prices: prices(monthly),
    osTemplates: windows ? [...linux, { osType: "windows", osVersion: "2022" }] : linux,
    snapshotLimit: cpu >= 2 ? 3 : 0,
    sharedAddress: false,
  });

  const world: World = {
    seed,
    rngState: 0, // set below, once every seeded id is drawn
    clockOffsetMs: 0,
    account: {
      id: rng.uuid(),
      wallet: 50_000_000,
      currency: "IDR",
      serverLimit: 25,
      registrant: {
        name: "Dewi Lestari",
        organization: "Contoh Digital",
        email: "dewi@example.id",
        phone: "+62.8123456789",
        address: "Jl. Merdeka 1",
        city: "Jakarta",
        province: "DKI Jakarta",
        postalCode: "10110",
        country: "ID",
      },
    },
    projects: [
      {
        id: projectA,
        name: "production",
        environmentId: rng.uuid(),
        email: emailOnFreePlan(),
      },
      {
        id: projectB,
        name: "staging",
        environmentId: rng.uuid(),
        email: { enabled: true, sendingEnabled: true, plan: null, subscribedAt: EMAIL_SUBSCRIBED_AT, paygEnabled: false, tenantPaused: false },
      },
    ],
    keys: [
      keyRecord({ key: platformKey(), kind: "platform", label: "account", projectId: null, products: [...allProducts] }),
      keyRecord({ key: platformKey(), kind: "platform", label: "project", projectId: projectA, products: [...allProducts] }),
      keyRecord({ key: platformKey(), kind: "platform", label: "noVps", projectId: null, products: allProducts.filter((p) => p !== "vps") }),
      keyRecord({ key: platformKey(), kind: "platform", label: "vpsOnly", projectId: null, products: ["vps"] }),
      keyRecord({ key: platformKey(), kind: "platform", label: "expired", projectId: null, products: [...allProducts], expiresAt: "2025-01-01T00:00:00.000Z" }),
      keyRecord({ key: platformKey(), kind: "platform", label: "revoked", projectId: null, products: [...allProducts], revoked: true }),
      keyRecord({ key: emailKey(), kind: "email", label: "email", projectId: projectA, products: ["email"] }),
      keyRecord({ key: emailKey(), kind: "email", label: "emailNoPlan", projectId: projectB, products: ["email"] }),
    ],
    catalog: {
      vpsPlans: [
        plan("s-1vcpu-1gb", "standard", "jkt", 1, 1024, 25, 75_000),
        plan("s-2vcpu-2gb", "standard", "jkt", 2, 2048, 50, 150_000),
        plan("s-4vcpu-8gb", "standard", "jkt", 4, 8192, 160, 450_000, true),
        plan("c-2vcpu-4gb", "cpu-optimized", "jkt", 2, 4096, 50, 260_000),
        plan("s-2vcpu-2gb-sgp", "standard", "sgp", 2, 2048, 50, 170_000),
      ],
      backupPlans: [
        { code: "backup-10", name: "Backup 10 GB", quotaGb: 10, price: 15_000, retired: false },
        { code: "backup-50", name: "Backup 50 GB", quotaGb: 50, price: 50_000, retired: false },
        { code: "backup-100", name: "Backup 100 GB", quotaGb: 100, price: 90_000, retired: false },
        { code: "backup-legacy", name: "Backup 5 GB (retired)", quotaGb: 5, price: 10_000, retired: true },
      ],
      tlds: {
        com: { registration: 165_000, whoisProtection: 50_000, renewal: 175_000, supported: true },
        net: { registration: 180_000, whoisProtection: 50_000, renewal: 190_000, supported: true },
        id: { registration: 250_000, whoisProtection: 0, renewal: 250_000, supported: true },
        "co.id": { registration: 120_000, whoisProtection: 0, renewal: 120_000, supported: true },
        xyz: { registration: 30_000, whoisProtection: 25_000, renewal: 160_000, supported: true },
        io: { registration: 0, whoisProtection: 0, renewal: 0, supported: "unavailable" },
        gov: { registration: 0, whoisProtection: 0, renewal: 0, supported: false },
        mil: { registration: 0, whoisProtection: 0, renewal: 0, supported: false },
      },
      takenDomains: ["google.com", "taken-example.com", "example.id"],
      premiumDomains: ["cloud.xyz", "premium.com"],
    },
    email: {},
    vps: {},
    domains: {},
    ai: {},
    notifications: [],
    activity: [],
    transitions: [],
    jobFailures: [],
  };
  seedSecondAccount(world, seed);
  seedSharedAddressPlans(world, seed);
  world.rngState = rng.state;
  return world;
}

/**
 * Plans whose servers share the region's public address (assumed-routes.md "Server access"): port
 * forwards and SSH keys work only there. A family of their own (a server never moves between an
 * own and a shared address by an upgrade). Ids from a generator of their own, so every other seeded
 * id stays as it was.
 */
export function seedSharedAddressPlans(world: World, seed: number): void {
  const rng = new Rng((seed ^ 0x5a4ed) >>> 0);
  const linux = [
    { osType: "ubuntu", osVersion: "22.04" },
    { osType: "ubuntu", osVersion: "24.04" },
    { osType: "debian", osVersion: "12" },
  ];
  const prices = (monthly: number) => ({ monthly, "3month": Math.round(monthly * 3 * 0.97), "6month": Math.round(monthly * 6 * 0.95), yearly: Math.round(monthly * 12 * 0.9) });
  world.catalog.vpsPlans.push(
    { id: rng.uuid(), name: "nat-1vcpu-1gb", family: "shared-address", region: "jkt", cpu: 1, memoryMb: 1024, diskGb: 20, prices: prices(45_000), osTemplates: linux, snapshotLimit: 1, sharedAddress: true },
    { id: rng.uuid(), name: "nat-2vcpu-2gb", family: "shared-address", region: "jkt", cpu: 2, memoryMb: 2048, diskGb: 40, prices: prices(90_000), osTemplates: linux, snapshotLimit: 2, sharedAddress: true },
  );
}

/**
 * The second account (a client's account beside the agency's own): its own wallet, one project
 * with email on the free plan, a whole-account key and an email key. Its ids come from a generator
 * of their own, so the first account's ids and keys are the same as before it existed.
 */
export function seedSecondAccount(world: World, seed: number): void {
  const rng = new Rng((seed ^ 0x5ec0d) >>> 0);
  const accountId = rng.uuid();
  const projectId = rng.uuid();
  world.otherAccounts = [
    {
      id: accountId,
      wallet: SECOND_ACCOUNT_WALLET,
      currency: "IDR",
      serverLimit: 25,
      registrant: {
        name: "Budi Santoso",
        organization: "Klien Nusantara",
        email: "budi@klien.example",
        phone: "+62.8129876543",
        address: "Jl. Sudirman 2",
        city: "Bandung",
        province: "Jawa Barat",
        postalCode: "40111",
        country: "ID",
      },
    },
  ];
  world.projects.push({
    id: projectId,
    name: "client-production",
    accountId,
    environmentId: rng.uuid(),
    email: emailOnFreePlan(),
  });
  world.keys.push(
    keyRecord({ key: PLATFORM_KEY_PREFIX + rng.hex(48), kind: "platform", label: "secondAccount", projectId: null, accountId, products: [...allProducts] }),
    keyRecord({ key: EMAIL_KEY_PREFIX + rng.hex(48), kind: "email", label: "secondEmail", projectId, accountId, products: ["email"] }),
  );
}

export function seededKeys(world: World): SeededKeys {
  const byLabel = (label: string) => {
    const k = world.keys.find((key) => key.label === label);
    if (!k) throw new Error(`seeded key ${label} missing from the world`);
    return k.key;
  };
  return {
    account: byLabel("account"),
    project: byLabel("project"),
    noVps: byLabel("noVps"),
    vpsOnly: byLabel("vpsOnly"),
    expired: byLabel("expired"),
    revoked: byLabel("revoked"),
    email: byLabel("email"),
    emailNoPlan: byLabel("emailNoPlan"),
    secondAccount: byLabel("secondAccount"),
    secondEmail: byLabel("secondEmail"),
  };
}
