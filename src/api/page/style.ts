/** The page's stylesheet, served at `/style.css`. Plain and readable; no external fonts. */
export const STYLE_CSS = `
:root { color-scheme: light dark; --accent: #2457c5; --warn: #a15c00; --bad: #b3261e; --line: #8884; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 46rem; padding: 1rem; }
code, pre, textarea, .url { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.92em; }
.top { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; }
h1 { font-size: 1.3rem; margin: 0.2rem 0 1rem; }
.status { font-size: 0.85rem; padding: 0.1rem 0.5rem; border-radius: 1rem; border: 1px solid var(--line); }
.status.live { color: #1e7b34; border-color: #1e7b3466; }
.status.down { color: var(--bad); border-color: var(--bad); }
.empty { color: #777; }
.question { border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 6px;
  padding: 0.8rem 1rem; margin: 0 0 1rem; }
.question > header { display: flex; justify-content: space-between; gap: 1rem; align-items: baseline; }
.question h2 { font-size: 1.08rem; margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.time { font-size: 0.85rem; color: #777; white-space: nowrap; }
.time.late { color: var(--bad); }
.meta, .audience, .unattributed { margin: 0.25rem 0; font-size: 0.88rem; color: #666; }
.audience.person { color: var(--warn); }
.field { margin: 0.7rem 0; }
.field > label, .field > fieldset > legend { display: block; font-weight: 600; margin-bottom: 0.2rem; }
.field fieldset { border: 0; padding: 0; margin: 0; }
.field .choice { display: block; font-weight: normal; }
.field.check > label { font-weight: 600; display: flex; gap: 0.5rem; align-items: center; }
.field input[type=text], .field input[type=email], .field input[type=url], .field input[type=password],
.field input[type=number], .field input[type=date], .field input[type=datetime-local], .field select, textarea {
  width: 100%; padding: 0.35rem 0.45rem; font: inherit; border: 1px solid #8888; border-radius: 4px; }
.field.missing input, .field.missing select, .field.missing fieldset { outline: 2px solid var(--bad); }
.help { display: block; color: #777; font-size: 0.85rem; }
.required { color: var(--bad); }
.url { padding: 0.5rem; border: 1px dashed var(--line); border-radius: 4px; overflow-wrap: anywhere; margin: 0.5rem 0; }
.url .host { color: var(--accent); font-size: 1.1em; }
.raw { font-size: 0.85rem; color: #777; overflow-wrap: anywhere; }
.warning { color: var(--warn); font-weight: 600; margin: 0.3rem 0; }
.params { max-height: 16rem; overflow: auto; background: #8881; padding: 0.5rem; border-radius: 4px; }
.error { color: var(--bad); font-weight: 600; white-space: pre-wrap; }
.buttons { display: flex; gap: 0.5rem; flex-wrap: wrap; margin-top: 0.8rem; }
button { font: inherit; padding: 0.35rem 0.9rem; border-radius: 4px; border: 1px solid #8888; cursor: pointer; }
button.accept { background: var(--accent); color: white; border-color: var(--accent); }
button.decline { border-color: var(--warn); color: var(--warn); background: none; }
button.cancel { background: none; }
button.open { border-color: var(--accent); color: var(--accent); background: none; }
button:disabled { opacity: 0.5; cursor: default; }
.history h2 { font-size: 1rem; color: #777; margin-top: 2rem; }
.history li { margin: 0.2rem 0; overflow-wrap: anywhere; }
.signin { border: 1px solid var(--warn); border-radius: 6px; padding: 0.8rem 1rem; margin: 0 0 1rem; }
.signin h2 { font-size: 1.08rem; margin: 0 0 0.4rem; }
.tabs { display: flex; gap: 0.3rem; margin: 0 0 1rem; border-bottom: 1px solid var(--line); }
.tabs button { border: 0; border-bottom: 2px solid transparent; border-radius: 0; background: none; }
.tabs button[aria-selected=true] { border-bottom-color: var(--accent); font-weight: 600; }
.audit-filter { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
.audit-filter label { display: flex; flex-direction: column; font-size: 0.85rem; }
.audit-filter input { font: inherit; padding: 0.25rem 0.4rem; border: 1px solid #8888; border-radius: 4px; width: 9rem; }
.audit-status { color: #777; font-size: 0.88rem; }
table.audit { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
table.audit th, table.audit td { border-bottom: 1px solid var(--line); padding: 0.25rem 0.35rem; text-align: left; vertical-align: top; }
table.audit td { overflow-wrap: anywhere; }
table.audit td.detail { font-family: ui-monospace, Menlo, Consolas, monospace; }
[hidden] { display: none !important; }
`;
