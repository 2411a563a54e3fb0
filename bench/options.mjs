// The benches' own command-line options.

/** `--name N`: a whole number > 0, else `fallback`. */
export function numberOption(name, fallback) {
  const at = process.argv.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} takes a whole number > 0`);
  return value;
}
