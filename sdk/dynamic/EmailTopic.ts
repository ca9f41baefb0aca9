// The provider of every EmailTopic: this module's exports are the object `__provider` stores (see ../shim.ts).
import { providerShim } from "../shim";

export = providerShim("EmailTopic");
