// The benches' own command-line options.

/** `--name N`: a whole number > 0, else `fallback`. */
export function numberOption(name, fallback) {
  const at = process.argv.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} takes a whole number > 0`);
  return value;
}

/**
 * The environment every process a latency bench starts gets: this one's, without
 * NODE_EXTRA_CA_CERTS unless `--with-extra-ca-certs`. Node parses the certificates it names at
 * every start, before any script: a system bundle of ~140 costs about four times what the rest of
 * `node -e 0` does (callgrind: 500M instructions against 87M), which would hide what mcpx adds
 * behind a floor few users have. The note says which floor was measured.
 */
export function startEnvironment(extra) {
  const env = { ...process.env, ...extra };
  const kept = process.argv.includes('--with-extra-ca-certs');
  const note = env.NODE_EXTRA_CA_CERTS
    ? kept
      ? `NODE_EXTRA_CA_CERTS is set and kept (${env.NODE_EXTRA_CA_CERTS}): every Node start parses it, floor included`
      : 'NODE_EXTRA_CA_CERTS is set here and left out of every process measured (--with-extra-ca-certs keeps it)'
    : undefined;
  if (!kept) delete env.NODE_EXTRA_CA_CERTS;
  return { env, note };
}
