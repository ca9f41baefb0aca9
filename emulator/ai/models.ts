/**
 * `GET /v1/models`: the models the key may call (usable and in its allowlist), in the OpenAI list
 * shape with the fields the Anthropic SDK's page reads besides.
 */
import type { FastifyReply } from "fastify";
import { routes } from "../../contract/routes";
import type { AiCall, Gateway } from "./call";
import { keyAllowsModel } from "./limits";
import { sendOk } from "./respond";
import { aiState, usable, type AiModelRec } from "./state";

export async function listModels(gw: Gateway, call: AiCall, reply: FastifyReply): Promise<FastifyReply> {
  const data = aiState(gw.emu.world).models.filter((m) => usable(m) && keyAllowsModel(gw.emu, call.key!, m.id)).map(modelView);
  sendOk(gw, reply, call, routes["ai.models"].response.parse({ object: "list", data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }));
  return reply;
}

function modelView(m: AiModelRec) {
  return {
    id: m.id,
    object: "model" as const,
    created: m.created,
    owned_by: m.ownedBy,
    // Extra fields (the Anthropic SDK's page reads type/display_name/created_at).
    type: "model",
    display_name: m.id,
    created_at: new Date(m.created * 1000).toISOString(),
    styles: m.styles,
    context_window: m.contextWindow,
    max_output_tokens: m.outputLimit,
    pricing: { currency: "IDR", input_per_token: m.price.input, output_per_token: m.price.output },
  };
}
