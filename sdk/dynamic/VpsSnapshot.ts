// The provider of every VpsSnapshot: this module's exports are the object `__provider` stores (see ../shim.ts).
import { providerShim } from "../shim";

export = providerShim("VpsSnapshot");
