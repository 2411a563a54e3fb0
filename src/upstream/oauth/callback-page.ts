/**
 * What the person's browser shows when the authorization server sends it back to mcpx: that
 * the sign-in went through, or that this link was not one mcpx was waiting for (used already,
 * expired, or not mcpx's). Nothing from the query is echoed: it may be forged.
 */
export interface CallbackPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function callbackPage(server: string | undefined): CallbackPage {
  const headers = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'",
    "referrer-policy": "no-referrer",
  };
  if (server === undefined) {
    return {
      status: 400,
      headers,
      body: page("Sign-in not recognised", "mcpx was not waiting for this sign-in: it was used already, it expired, or it was not started by mcpx."),
    };
  }
  return { status: 200, headers, body: page("Signed in", `mcpx has your sign-in to ${escapeHtml(server)}. You can close this tab.`) };
}

function page(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mcpx: ${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
