// The provider of every EmailSuppression: this module's exports are the object `__provider` stores (see ../shim.ts).
import { providerShim } from "../shim";

export = providerShim("EmailSuppression");
