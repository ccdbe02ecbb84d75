/**
 * The CSP nonce of the page being rendered (set by app/entry.server.tsx from the load context),
 * for the inline scripts Remix writes (<Scripts>, <ScrollRestoration>). Empty in the browser,
 * which needs no nonce after the first load.
 */
import { createContext, useContext } from "react";

export const CspNonceContext = createContext<string | undefined>(undefined);

export const useCspNonce = () => useContext(CspNonceContext);
