/**
 * Ids of what lives in one instance's memory (a legacy host session, a modern call held open)
 * say which instance that is: `<instance>.<random>`. Any instance that receives a request
 * naming one knows at once where to hand it, with no lookup in the shared store. Without a
 * cluster, ids stay plain (no dot), and belong to whoever holds them.
 */
import { randomUUID } from "node:crypto";

export function ownedId(instance: string): string {
  return `${instance}.${randomUUID()}`;
}

/** The instance an id says holds it, or undefined for a plain id. */
export function ownerOf(id: string): string | undefined {
  const dot = id.indexOf(".");
  return dot > 0 ? id.slice(0, dot) : undefined;
}
