// The gallery: project cards and the new-project button (jHPbke).
import { boot, h, icon, t } from './dom.js';
import { snackbar } from './chrome.js';
import { rpc } from './wire.js';

export function galleryView() {
  const create = h(
    'button',
    { type: 'button', class: 'new-project-button flow-button variant-primary' },
    icon('add'),
    t('newProject'),
  );
  create.addEventListener('click', async () => {
    create.disabled = true;
    try {
      const reply = await rpc('jHPbke', ['']);
      const id = boot.variants.projectReply === 'wrapped' ? reply[1][0] : reply[0];
      location.assign(`/project/${id}`);
    } catch {
      create.disabled = false;
      snackbar(t('somethingWrong'));
    }
  });
  const cards = boot.projects.map((p) =>
    h(
      'flow-project-card',
      { 'data-project-id': p.id },
      h(
        'a',
        { class: 'project-card-link', href: `/project/${p.id}` },
        h('span', { class: 'project-card-title' }, p.title),
      ),
    ),
  );
  return h(
    'div',
    { class: 'gallery' },
    h('h2', {}, t('projects')),
    create,
    h('div', { class: 'project-cards' }, ...cards),
  );
}
