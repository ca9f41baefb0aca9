/**
 * The AI gateway ({ai_base_url} = `/ai`): `GET /v1/models`, `POST /v1/chat/completions` (OpenAI
 * style), `POST /v1/messages` and `POST /v1/messages/count_tokens` (Anthropic style), with canned
 * deterministic answers, streaming, the spec's limits, holds and charges against the AI balance,
 * both error shapes, and injectable upstream failures. No envelope: the module registers its routes
 * itself (see gateway.ts); its control routes live under `/_emulator/ai` (see control.ts).
 */
import { SERVICE_PREFIX, type ServiceModule } from "../core/module";
import { errorBody } from "./errors";
import { registerAiControl } from "./control";
import { aiRoutes } from "./call";
import { registerGateway } from "./gateway";

export const aiModule: ServiceModule = {
  handlers: {},
  serves: [...aiRoutes],
  register: (app, emu, parts) => registerGateway(app, emu, parts),
  control: (control, emu) => registerAiControl(control, emu),
  // No envelope here: an unknown path answers in the OpenAI error shape.
  notFound: (path, message) =>
    path === SERVICE_PREFIX.ai || path.startsWith(`${SERVICE_PREFIX.ai}/`) ? { status: 404, code: "not_found", body: errorBody("openai", 404, "not_found", message) } : undefined,
};
