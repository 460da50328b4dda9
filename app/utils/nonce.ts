import { createContext, useContext } from 'react'

const NonceContext = createContext<string>('')
export const NonceProvider = NonceContext.Provider
/** CSP nonce on the server; empty in the browser (scripts are already trusted there). */
export const useNonce = () => useContext(NonceContext)
