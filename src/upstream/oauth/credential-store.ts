/**
 * Upstream OAuth credentials in the state directory: `credentials.db`, a SQLite file only its
 * owner may read (0600, like the rest of the state dir), apart from the question store so that
 * a store shared with other machines never holds them. Every read goes to the file, so a sign-in
 * made by `mcpx auth login` is seen at once by a running `mcpx serve`. Nothing here logs.
 */
import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ensurePrivateDir, ensurePrivateFile } from "../../broker/state-dir.js";
import type { CredentialKey, CredentialStore, CredentialSummary, StoredCredentials } from "./types.js";

export const CREDENTIALS_FILE = "credentials.db";

const SCHEMA = `CREATE TABLE IF NOT EXISTS oauth_credentials (
  server TEXT NOT NULL,
  identity TEXT NOT NULL,
  data_json TEXT NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (server, identity)
)`;

export class SqliteCredentialStore implements CredentialStore {
  readonly #read;
  readonly #write;
  readonly #remove;
  readonly #all;

  private constructor(private readonly db: Database.Database) {
    this.#read = db.prepare(`SELECT data_json FROM oauth_credentials WHERE server = ? AND identity = ?`);
    this.#write = db.prepare(
      `INSERT INTO oauth_credentials (server, identity, data_json, updated_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (server, identity) DO UPDATE SET data_json = excluded.data_json, updated_ms = excluded.updated_ms`,
    );
    this.#remove = db.prepare(`DELETE FROM oauth_credentials WHERE server = ? AND identity = ?`);
    this.#all = db.prepare(`SELECT server, identity, data_json, updated_ms FROM oauth_credentials ORDER BY server, identity`);
  }

  static open(dir: string): SqliteCredentialStore {
    ensurePrivateDir(dir);
    const path = join(dir, CREDENTIALS_FILE);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) ensurePrivateFile(file);
    if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
    const db = new Database(path, { timeout: 5_000 });
    db.pragma("journal_mode = WAL");
    db.pragma("secure_delete = ON"); // a token deleted is zeroed on disk, not left in a free page
    db.exec(SCHEMA);
    return new SqliteCredentialStore(db);
  }

  read(key: CredentialKey): StoredCredentials | undefined {
    const row = this.#read.get(key.server, key.identity) as { data_json: string } | undefined;
    return row ? (JSON.parse(row.data_json) as StoredCredentials) : undefined;
  }

  write(key: CredentialKey, credentials: StoredCredentials): void {
    this.#write.run(key.server, key.identity, JSON.stringify(credentials), Date.now());
  }

  remove(key: CredentialKey): boolean {
    return this.#remove.run(key.server, key.identity).changes > 0;
  }

  list(): CredentialSummary[] {
    return (this.#all.all() as { server: string; identity: string; data_json: string; updated_ms: number }[]).map((row) => {
      const data = JSON.parse(row.data_json) as StoredCredentials;
      const tokens = data.tokens ?? {};
      const expiresIn = typeof tokens.expires_in === "number" ? tokens.expires_in : undefined;
      const summary: CredentialSummary = {
        server: row.server,
        identity: row.identity,
        definition: data.definition,
        hasRefreshToken: typeof tokens.refresh_token === "string",
        updatedAt: row.updated_ms,
      };
      if (typeof tokens.issuer === "string") summary.issuer = tokens.issuer;
      if (typeof tokens.scope === "string") summary.scopes = tokens.scope;
      if (expiresIn !== undefined && data.tokensSavedAt !== undefined) summary.expiresAt = data.tokensSavedAt + expiresIn * 1000;
      return summary;
    });
  }

  close(): void {
    this.db.close();
  }
}
