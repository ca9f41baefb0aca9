/** Secret values between the program and the state: the SDK's wrappers off and on again. */
import { SECRET_SIG, SIG_KEY, type Props } from "./state";

/** Takes the SDK's secret wrappers off, noting which top-level properties were secret. */
export function unwrapSecrets(props: Props): { plain: Props; secrets: string[] } {
  const secrets: string[] = [];
  const strip = (value: unknown, top: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => strip(v, top));
    if (value && typeof value === "object") {
      const o = value as Props;
      if (o[SIG_KEY] === SECRET_SIG) {
        if (!secrets.includes(top)) secrets.push(top);
        return strip(o.value, top);
      }
      return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, strip(v, top)]));
    }
    return value;
  };
  const plain = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, strip(v, k)]));
  return { plain, secrets };
}

export function wrapSecrets(props: Props, secrets: readonly string[]): Props {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, secrets.includes(k) && v !== undefined ? { [SIG_KEY]: SECRET_SIG, value: v } : v]));
}
