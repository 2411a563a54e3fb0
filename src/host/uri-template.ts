/** What mcpx needs of RFC 6570 URI templates: which URIs one can produce, and how specific it is. */

/** A regular expression for the URIs an RFC 6570 template can produce (simple and reserved expansion). */
export function templatePattern(uriTemplate: string): RegExp {
  let pattern = "";
  for (const part of parts(uriTemplate)) {
    if (part.literal !== undefined) pattern += escape(part.literal);
    else {
      const expression = part.expression;
      pattern +=
        expression.startsWith("+") || expression.startsWith("#") ? ".*" : expression.startsWith("?") || expression.startsWith("&") ? "(?:[?&].*)?" : "[^/?#]*";
    }
  }
  return new RegExp(`^${pattern}$`);
}

/**
 * How specific a template is: the characters it fixes. When several templates can produce a
 * URI, the most specific one owns it, so `{+path}` never captures `file:///docs/{name}`'s URIs.
 */
export function specificity(uriTemplate: string): number {
  let literals = 0;
  for (const part of parts(uriTemplate)) literals += part.literal?.length ?? 0;
  return literals;
}

type Part = { literal: string; expression?: undefined } | { literal?: undefined; expression: string };

function parts(uriTemplate: string): Part[] {
  const found: Part[] = [];
  let rest = uriTemplate;
  for (let open = rest.indexOf("{"); open !== -1; open = rest.indexOf("{")) {
    const close = rest.indexOf("}", open);
    if (close === -1) break;
    found.push({ literal: rest.slice(0, open) }, { expression: rest.slice(open + 1, close) });
    rest = rest.slice(close + 1);
  }
  found.push({ literal: rest });
  return found;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
