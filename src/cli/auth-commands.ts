/** `mcpx auth`: the person's sign-ins to servers that require OAuth (cli/auth.ts), its modules loaded only when it runs. */
import type { Command } from "commander";

export function registerAuth(program: Command): void {
  const auth = program.command("auth").description("sign-ins to servers that require OAuth: list, login, logout (tokens are never shown)");
  auth
    .command("list")
    .description("each sign-in kept: server, identity, scopes, expiry, whether it can be refreshed (never a token)")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      process.exitCode = (await import("./auth.js")).authList(options);
    });
  auth
    .command("login")
    .description("sign in to SERVER now: prints the URL to open and waits until the sign-in comes back")
    .argument("<server>")
    .option("-c, --config <file>", "config file")
    .option("--open", "also open the URL in a browser ($BROWSER, else xdg-open)")
    .action(async (server: string, options: { config?: string; open?: boolean }) => {
      const [{ authLogin }, { configFor }] = await Promise.all([import("./auth.js"), import("./context.js")]);
      process.exitCode = await authLogin(await configFor(options.config), server, options);
    });
  auth
    .command("logout")
    .description("sign out of SERVER: its tokens revoked where the authorization server offers it (RFC 7009), then deleted")
    .argument("<server>")
    .action(async (server: string) => {
      process.exitCode = await (await import("./auth.js")).authLogout(server);
    });
}
