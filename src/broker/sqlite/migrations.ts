/**
 * The store's schema, as numbered migrations. `PRAGMA user_version` records how many have run;
 * a new version of mcpx appends a migration and never edits an old one.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE questions (
     id TEXT PRIMARY KEY,
     server TEXT NOT NULL,
     kind TEXT NOT NULL,
     method TEXT NOT NULL,
     mode TEXT,
     message TEXT NOT NULL,
     params_json TEXT NOT NULL,
     url TEXT,
     tool TEXT,
     host_session TEXT,
     audience TEXT NOT NULL,
     audience_reason TEXT NOT NULL,
     created_ms INTEGER NOT NULL,
     expires_ms INTEGER NOT NULL,
     state TEXT NOT NULL,
     owner_pid INTEGER NOT NULL,
     owner_instance TEXT NOT NULL
   );
   CREATE INDEX questions_by_state ON questions (state, expires_ms);
   CREATE INDEX questions_by_owner ON questions (owner_instance, state);
   CREATE TABLE answers (
     question_id TEXT PRIMARY KEY REFERENCES questions (id) ON DELETE CASCADE,
     action TEXT NOT NULL,
     content_json TEXT,
     answered_by TEXT NOT NULL,
     answered_ms INTEGER NOT NULL
   );`,
  // 2: calls made by `mcpx call`, which keep running after the command exits on a question.
  `ALTER TABLE questions ADD COLUMN call_id TEXT;
   CREATE INDEX questions_by_call ON questions (call_id, state);
   CREATE TABLE calls (
     id TEXT PRIMARY KEY,
     server TEXT NOT NULL,
     tool TEXT NOT NULL,
     arguments_json TEXT NOT NULL,
     state TEXT NOT NULL,
     result_json TEXT,
     error TEXT,
     runner_pid INTEGER,
     created_ms INTEGER NOT NULL,
     finished_ms INTEGER
   );`,
  // 3: when the waiting process handed the answer to the upstream, apart from when it was given.
  // Answers recorded before this were reported sent when given; they keep that meaning.
  `ALTER TABLE answers ADD COLUMN delivered_ms INTEGER;
   UPDATE answers SET delivered_ms = answered_ms;`,
  // 4: a URL question's completion (the upstream's notifications/elicitation/complete, or a
  // person saying it is done), beside its answer (which, for a URL question, is only consent).
  `ALTER TABLE questions ADD COLUMN completed_ms INTEGER;
   ALTER TABLE questions ADD COLUMN completed_by TEXT;`,
  // 5: the web page's one-time codes already used, until they would have expired anyway, so no
  // instance on this state dir (a restarted one included) takes one twice.
  `CREATE TABLE used_page_codes (
     nonce TEXT PRIMARY KEY,
     expires_ms INTEGER NOT NULL
   );`,
  // 6: whose a question is (issue 16: identities for hosts). NULL, as every question stored
  // before, is the operator's ("local").
  `ALTER TABLE questions ADD COLUMN identity TEXT;`,
  // 7: the tasks mcpx relayed for hosts (issue 17): whose, on which upstream under which id, how
  // it stood when last heard of, and which process follows it (one that is gone can no longer).
  `CREATE TABLE tasks (
     id TEXT PRIMARY KEY,
     identity TEXT NOT NULL,
     host_session TEXT,
     server TEXT NOT NULL,
     tool TEXT NOT NULL,
     upstream_task_id TEXT NOT NULL,
     status TEXT NOT NULL,
     status_message TEXT,
     created_ms INTEGER NOT NULL,
     last_poll_ms INTEGER NOT NULL,
     expires_ms INTEGER,
     owner_pid INTEGER NOT NULL,
     owner_instance TEXT NOT NULL
   );
   CREATE INDEX tasks_by_follower ON tasks (owner_instance, status);`,
  // 8: the audit trail (issue 18): every tool call and every question, append-only (broker/audit-store.ts).
  `CREATE TABLE audit (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     at_ms INTEGER NOT NULL,
     kind TEXT NOT NULL,
     identity TEXT NOT NULL,
     host_session TEXT,
     client TEXT,
     call_id TEXT,
     server TEXT NOT NULL,
     tool TEXT,
     arguments_json TEXT,
     outcome TEXT NOT NULL,
     duration_ms INTEGER,
     question_id TEXT,
     method TEXT,
     answered_by TEXT,
     detail TEXT
   );
   CREATE INDEX audit_by_time ON audit (at_ms);`,
  // 9: the network address an answer came from (REST and the page), for the answer and the audit trail.
  `ALTER TABLE answers ADD COLUMN answered_from TEXT;
   ALTER TABLE audit ADD COLUMN answered_from TEXT;`,
  // 10: the web page's tab credentials (by digest), so every process on this state dir knows them.
  `CREATE TABLE page_sessions (
     digest TEXT PRIMARY KEY,
     identity TEXT NOT NULL,
     expires_ms INTEGER NOT NULL
   );
   CREATE INDEX page_sessions_by_identity ON page_sessions (identity, expires_ms);`,
  // 11: the profile a call came through (config `profiles`), for the audit trail.
  `ALTER TABLE audit ADD COLUMN profile TEXT;`,
];
