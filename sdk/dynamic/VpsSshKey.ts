// The provider of every VpsSshKey: this module's exports are the object `__provider` stores (see ../shim.ts).
import { providerShim } from "../shim";

export = providerShim("VpsSshKey");
