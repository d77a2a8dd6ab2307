// Boot: the client-side router (about / 404 / unavailable hops), gallery and project editor.
import { agentChip, agentOnlyView } from './agent.js';
import { briefPanel } from './brief.js';
import { aboutView, consentBar, header, messageView, promoDialog } from './chrome.js';
import { composer } from './composer.js';
import { boot, h, scaled, t } from './dom.js';
import { galleryView } from './gallery.js';
import { resumeJobs, submitClassic } from './generate.js';
import { assetGrid, pendingTile } from './grid.js';
import { installDrift } from './drift.js';
import { toolbar } from './upload.js';
import { rpc } from './wire.js';
import { sceneView } from './scene.js';

const root = document.querySelector('aisandbox-root');
// Test switch (src/drift.ts): renamed anchors are rewritten from the first render on.
installDrift();

function render(view) {
  root.replaceChildren(view);
}

function renderRoute(route) {
  if (route === 'about') return render(aboutView());
  if (route === 'notfound') return render(messageView('flow-not-found', t('notFound')));
  if (route === 'unavailable') return render(messageView('flow-unavailable', t('unavailable')));
  if (route === 'gallery') {
    render(h('div', { class: 'app-shell' }, header(), h('main', {}, galleryView())));
    consentBar();
    return;
  }
  if (route === 'scene') {
    sceneView();
    rpc('DTaVef', []).catch(() => {});
    return;
  }
  projectView();
}

function projectView() {
  const grid = assetGrid();
  // The brief panel, in both layouts and also when the brief is empty (brief.js).
  const side = briefPanel();
  if (boot.cohort === 'agent_only') {
    render(
      h(
        'div',
        { class: 'app-shell' },
        header(),
        h('main', { class: 'project-editor agent-only' }, side, agentOnlyView(grid, pendingTile)),
      ),
    );
  } else {
    const main = h('main', { class: 'project-editor' }, toolbar(), side, grid);
    render(h('div', { class: 'app-shell' }, header(), main));
    // Readiness: the composer (and its settings trigger) settles a while after DOMContentLoaded.
    setTimeout(() => {
      main.append(composer(() => submitClassic(), agentChip));
      resumeJobs();
    }, scaled(3000));
  }
  consentBar();
  promoDialog();
  rpc('DTaVef', []).catch(() => {});
  setInterval(() => rpc('DTaVef', []).catch(() => {}), Math.max(1000, scaled(60000)));
}

if (boot.hop) {
  // The app hops client-side (no Location header, no rpcs): ~300 ms after load.
  setTimeout(() => {
    history.replaceState(null, '', boot.hop);
    renderRoute(boot.hop.startsWith('/about') ? 'about' : boot.hop.startsWith('/404') ? 'notfound' : 'unavailable');
  }, 300);
} else renderRoute(boot.route);
