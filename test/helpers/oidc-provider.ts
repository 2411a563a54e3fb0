/**
 * The test authorization server's former name, for test/host/identity-sign-in.test.ts (added
 * while the two helpers were merged): use authorization-server.ts, where the whole of it is.
 */
export {
  startAuthorizationServer as startOidcProvider,
  type RunningAuthorizationServer as RunningOidcProvider,
} from "./authorization-server.js";
