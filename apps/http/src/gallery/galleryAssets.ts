// The gallery's stylesheet and script, served from /gallery/assets/ (the pages' CSP allows
// scripts and styles from the gallery's own origin only, nothing inline).

export const GALLERY_CSS = `
:root { color-scheme: light dark; --bg: #101214; --panel: #1a1d21; --line: #2c3036; --text: #e8eaed; --muted: #9aa0a6;
  --accent: #8ab4f8; --bad: #f28b82; --warn: #fdd663; --ok: #81c995; font: 15px/1.45 system-ui, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { display: flex; gap: 1.25rem; align-items: center; padding: .75rem 1.25rem; border-bottom: 1px solid var(--line);
  background: var(--panel); position: sticky; top: 0; z-index: 1; }
header.top .brand { font-weight: 700; color: var(--text); }
header.top nav { display: flex; gap: 1rem; }
header.top nav a[aria-current=page] { color: var(--text); font-weight: 600; }
header.top .note { margin-left: auto; color: var(--muted); font-size: .85rem; }
main { padding: 1.25rem; max-width: 1400px; margin: 0 auto; }
h1 { font-size: 1.35rem; margin: 0 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 1rem; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; display: flex; flex-direction: column; }
.card .cover { aspect-ratio: 16 / 9; background: #000; display: flex; align-items: center; justify-content: center; }
.card .cover img { width: 100%; height: 100%; object-fit: cover; }
.card .body { padding: .6rem .8rem; display: grid; gap: .2rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: .75rem; }
.tile { position: relative; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.tile a.thumb { display: block; aspect-ratio: 1; background: #000; }
.tile img { width: 100%; height: 100%; object-fit: cover; display: block; }
.tile .badge { position: absolute; top: .4rem; left: .4rem; background: rgba(0,0,0,.7); color: #fff; border-radius: 4px; padding: 0 .35rem; font-size: .8rem; }
.tile .meta { padding: .4rem .55rem; font-size: .82rem; }
.tile .prompt { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.missing { display: flex; align-items: center; justify-content: center; height: 100%; color: var(--warn); font-size: .85rem; padding: .5rem; text-align: center; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: 1rem; }
form.filters label { display: grid; font-size: .8rem; color: var(--muted); gap: .15rem; }
input, select, button { font: inherit; background: #0b0c0e; color: var(--text); border: 1px solid var(--line); border-radius: 6px; padding: .3rem .5rem; }
button, .button { cursor: pointer; background: #23272d; color: var(--text); border: 1px solid var(--line); border-radius: 6px; padding: .35rem .7rem; display: inline-block; }
button:hover, .button:hover { border-color: var(--accent); text-decoration: none; }
.viewer { display: grid; grid-template-columns: minmax(0, 3fr) minmax(280px, 2fr); gap: 1.25rem; align-items: start; }
@media (max-width: 900px) { .viewer { grid-template-columns: 1fr; } }
.viewer .stage { background: #000; border-radius: 10px; overflow: hidden; display: flex; justify-content: center; }
.viewer .stage img, .viewer .stage video { max-width: 100%; max-height: 78vh; display: block; }
.stage.movie { background: #000; border-radius: 10px; overflow: hidden; display: flex; justify-content: center; min-height: 4rem; }
.stage.movie video { max-width: 100%; max-height: 70vh; display: block; }
.error { color: var(--bad); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; }
table.kv, table.list { border-collapse: collapse; width: 100%; font-size: .9rem; }
table.kv th { text-align: left; color: var(--muted); font-weight: 500; padding: .25rem .75rem .25rem 0; vertical-align: top; white-space: nowrap; }
table.kv td { padding: .25rem 0; word-break: break-word; }
table.list th, table.list td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
code, pre { font-family: ui-monospace, monospace; font-size: .85rem; }
pre.cmd { background: #0b0c0e; border: 1px solid var(--line); border-radius: 6px; padding: .5rem; white-space: pre-wrap; word-break: break-all; margin: .25rem 0; }
.failure { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--bad); border-radius: 8px; padding: .75rem 1rem; margin-bottom: .75rem; }
.failure.billed { border-left-color: var(--warn); }
.failure h3 { margin: 0 0 .25rem; font-size: 1rem; }
.hint { color: var(--ok); }
.pill { display: inline-block; border: 1px solid var(--line); border-radius: 999px; padding: 0 .5rem; font-size: .78rem; color: var(--muted); }
.pill.warn { color: var(--warn); border-color: var(--warn); }
.flash { background: #1e2a1e; border: 1px solid var(--ok); padding: .5rem .75rem; border-radius: 6px; margin-bottom: 1rem; }
.flash.bad { background: #2a1e1e; border-color: var(--bad); }
.empty { color: var(--muted); padding: 2rem 0; }
`;

export const GALLERY_JS = `
'use strict';
// Copy buttons: data-copy holds the text (set by the server, escaped as an attribute).
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const text = button.getAttribute('data-copy') || '';
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  const label = button.textContent;
  button.textContent = 'Copied';
  setTimeout(() => { button.textContent = label; }, 1200);
});

// Running tasks: live rows from /tasks/events (Server-Sent Events); every value goes in as text.
const table = document.querySelector('[data-live-tasks]');
if (table && 'EventSource' in window) {
  const body = table.querySelector('tbody');
  const status = document.querySelector('[data-live-status]');
  const source = new EventSource('/tasks/events');
  source.addEventListener('tasks', (event) => {
    const tasks = JSON.parse(event.data);
    body.replaceChildren();
    for (const task of tasks) {
      const row = document.createElement('tr');
      row.dataset.taskId = task.task_id;
      for (const value of [task.task_id, task.profile, task.task_type, task.status, task.phase || '', task.may_have_spent ? 'yes' : 'no', task.prompt || '', task.updated_at]) {
        const cell = document.createElement('td');
        cell.textContent = String(value);
        row.append(cell);
      }
      body.append(row);
    }
    if (tasks.length === 0) {
      const row = document.createElement('tr');
      const cell = document.createElement('td');
      cell.colSpan = 8;
      cell.className = 'empty';
      cell.textContent = 'Nothing is queued or running.';
      row.append(cell);
      body.append(row);
    }
    if (status) status.textContent = 'live · updated ' + new Date().toLocaleTimeString();
  });
  source.addEventListener('error', () => { if (status) status.textContent = 'reconnecting…'; });
}
`;
