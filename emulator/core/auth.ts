/**
 * Authentication exactly as both Authentication sections of the spec say. Answers who calls and
 * which project(s) the call may reach; anything outside that reach is answered 404 by the handlers.
 */
import type { RouteDef, RouteId } from "../../contract/routes";
import { EmuError } from "./errors";
import type { Emu } from "./emu";
import { accountById, projectsOfAccount, type Account, type KeyRecord, type Product, type Project } from "./world";

export interface Caller {
  key: KeyRecord;
  /** The key's account: what it pays with and the only projects it can ever reach. */
  account: Account;
  /** Email routes: the one project the call acts on. Platform routes: the key's project or null. */
  projectId: string | null;
  /** Projects the call may see: one for a project-limited key or an email route, all otherwise. */
  reach: string[];
  wholeAccount: boolean;
}

/** The product a platform route needs, by route id prefix. Account routes need none. */
function productOf(routeId: RouteId): Product | undefined {
  if (routeId.startsWith("vps.") || routeId.startsWith("backup.")) return "vps";
  if (routeId.startsWith("domains.")) return "domain";
  return undefined;
}

export function bearerOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(.*)$/i.exec(value ?? "");
  const key = match?.[1]?.trim();
  return key ? key : undefined;
}

export function authenticate(
  emu: Emu,
  routeId: RouteId,
  route: RouteDef,
  headers: Record<string, string | string[] | undefined>,
): Caller {
  const bearer = bearerOf(headers.authorization);
  if (!bearer) {
    if (route.service === "email" && !route.sendEndpoint) throw new EmuError(401, "UNAUTHORIZED", "Authorization header required");
    throw new EmuError(401, "NO_API_KEY", "API key required: send Authorization: Bearer <API_KEY>");
  }
  const key = emu.world.keys.find((k) => k.key === bearer);
  if (!key || key.revoked) throw new EmuError(401, "INVALID_API_KEY", "Invalid API key");
  if (key.expiresAt && Date.parse(key.expiresAt) <= emu.nowMs()) throw new EmuError(401, "API_KEY_EXPIRED", "API key expired");

  const account = accountById(emu.world, key.accountId);
  const accountProjects = projectsOfAccount(emu.world, account);
  if (route.service === "email") {
    const caller = emailCaller(key, account, accountProjects, headers["x-svc-project"]);
    const project = emu.world.projects.find((p) => p.id === caller.projectId)!;
    // The spec's exceptions (status, reading and buying or renewing the plan) work without a plan.
    if (!project.email.plan && !route.withoutPlan) {
      throw new EmuError(402, "NO_PLAN", "No active email plan: choose a plan (the free plan counts) in the dashboard");
    }
    return caller;
  }

  if (key.kind !== "platform") throw new EmuError(401, "INVALID_API_KEY", "Invalid API key for this API");
  const product = productOf(routeId);
  if (product && !key.products.includes(product)) {
    throw new EmuError(403, "SCOPE_NOT_ALLOWED", `This API key is not enabled for the ${product === "vps" ? "VPS" : "Domain"} product`);
  }
  if (product === "domain" && key.projectId) {
    throw new EmuError(403, "ACCOUNT_KEY_REQUIRED", "Domain endpoints need a whole-account API key");
  }
  const reach = key.projectId ? [key.projectId] : accountProjects.map((p) => p.id);
  return { key, account, projectId: key.projectId, reach, wholeAccount: !key.projectId };
}

/** Another account's project is unknown to this key: named, it answers PROJECT_NOT_FOUND like any unknown id. */
function emailCaller(key: KeyRecord, account: Account, accountProjects: Project[], projectHeader: string | string[] | undefined): Caller {
  let project: Project | undefined;
  if (key.kind === "email" || key.projectId) {
    if (key.kind === "platform" && !key.products.includes("email")) throw new EmuError(403, "SCOPE_NOT_ALLOWED", "This API key is not enabled for the Email product");
    project = accountProjects.find((p) => p.id === key.projectId);
    // An email key whose project's email configuration is gone.
    if (!project) throw new EmuError(404, key.kind === "email" ? "NO_CONFIG" : "PROJECT_NOT_FOUND", "The key's email configuration no longer exists");
  } else {
    if (!key.products.includes("email")) throw new EmuError(403, "SCOPE_NOT_ALLOWED", "This API key is not enabled for the Email product");
    const named = Array.isArray(projectHeader) ? projectHeader[0] : projectHeader;
    if (named) {
      project = accountProjects.find((p) => p.id === named);
      if (!project) throw new EmuError(404, "PROJECT_NOT_FOUND", "Project not found");
    } else {
      const withEmail = accountProjects.filter((p) => p.email.enabled);
      if (withEmail.length !== 1) {
        throw new EmuError(400, "PROJECT_REQUIRED", "Several projects have email: name one with the X-Svc-Project header");
      }
      project = withEmail[0];
    }
  }
  if (!project.email.enabled) throw new EmuError(403, "EMAIL_NOT_SETUP", "Email is not activated for this project");
  return { key, account, projectId: project.id, reach: [project.id], wholeAccount: false };
}
