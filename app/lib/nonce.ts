import { createContext, useContext } from "react";

/** The CSP nonce of the current response; empty in the browser after hydration. */
const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
