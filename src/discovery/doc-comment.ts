/**
 * JSDoc comments from upstream text: nothing in the text can end the comment early or carry
 * control characters into the output, and a one-line text stays one line. Pure.
 */

/** Upstream text as lines fit for a comment; [] when there is nothing to say. */
export function commentLines(text: string): string[] {
  const clean = text
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .replace(/\t/g, "  ")
    .replaceAll("*/", "*\\/")
    .replace(/[ ]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return clean === "" ? [] : clean.split("\n");
}

/** `/** text *\/` (one line) or a block, each line at `indent`, ending in a newline; "" for no text. */
export function docComment(text: string, indent: string): string {
  const lines = commentLines(text);
  if (lines.length === 0) return "";
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => (line === "" ? `${indent} *\n` : `${indent} * ${line}\n`)).join("")}${indent} */\n`;
}
