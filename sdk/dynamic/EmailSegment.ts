// The provider of every EmailSegment: this module's exports are the object `__provider` stores (see ../shim.ts).
import { providerShim } from "../shim";

export = providerShim("EmailSegment");
