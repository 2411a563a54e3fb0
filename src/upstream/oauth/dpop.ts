/**
 * DPoP (RFC 9449, SEP-1932): the key that binds an upstream's tokens to mcpx. The SDK's
 * DpopSession signs the proofs; this keeps its key with the server's credentials (0600, like the
 * tokens it binds), so a DPoP-bound token and refresh token still work after mcpx restarts.
 */
import { DPOP_SUPPORTED_ALGS, type DpopAlg, DpopSession } from "@modelcontextprotocol/client";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";

/** A DPoP key pair as stored (a secret: the private key signs every proof). */
export interface StoredDpopKey {
  alg: DpopAlg;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** The algorithm to sign with, of those the authorization server advertises (ES256 when it may); none: no DPoP. */
export function dpopAlgorithm(advertised: unknown): DpopAlg | undefined {
  if (!Array.isArray(advertised)) return undefined;
  const usable = advertised.filter((alg): alg is DpopAlg => (DPOP_SUPPORTED_ALGS as readonly unknown[]).includes(alg));
  return usable.includes("ES256") ? "ES256" : usable[0];
}

/** A session over the stored key when it is of `alg`, else over a new one, which `save` keeps. */
export async function dpopSession(stored: StoredDpopKey | undefined, alg: DpopAlg, save: (key: StoredDpopKey) => void): Promise<DpopSession> {
  let key = stored?.alg === alg ? stored : undefined;
  if (!key) {
    const pair = await generateKeyPair(alg, { extractable: true });
    key = { alg, privateJwk: await exportJWK(pair.privateKey), publicJwk: await exportJWK(pair.publicKey) };
    save(key);
  }
  const [privateKey, publicKey, thumbprint] = await Promise.all([
    importJWK(key.privateJwk, alg),
    importJWK(key.publicJwk, alg),
    calculateJwkThumbprint(key.publicJwk, "sha256"),
  ]);
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) throw new Error("the stored DPoP key is not an asymmetric key pair");
  return DpopSession.create({ keyPair: { privateKey, publicKey, publicJwk: key.publicJwk, thumbprint, alg } });
}
