// The provider of every SendingDomain: this module's exports are the object `__provider` stores (see ../shim.ts).
import { providerShim } from "../shim";

export = providerShim("SendingDomain");
