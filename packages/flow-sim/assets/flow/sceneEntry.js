// How a clip gets onto a scene ([U], variant sceneEntry): under 'detail' a video's detail view
// holds a `movie` button that makes a scene holding the clip and opens it; the toolbar's New
// scene (measured entry, `movie`) makes an empty scene under every value, and only 'new-scene'
// offers "Add clip" on the scene's timeline (scene.js). Scenes are edited through the sim's own
// `simScene` rpc (its name and shape are the sim's invention).
import { app, boot, h, icon, t } from './dom.js';
import { snackbar } from './chrome.js';
import { rpc } from './wire.js';

async function openScene(mediaIds) {
  try {
    const [sceneId] = await rpc('simScene', [app.projectId, null, mediaIds]);
    location.assign(`/project/${app.projectId}/scene/${sceneId}`);
  } catch {
    snackbar(t('somethingWrong'));
  }
}

/** The toolbar's New scene: an empty scene editor. */
export function newScene() {
  return openScene([]);
}

/** The buttons a video's detail view adds beside download ([] unless sceneEntry is 'detail'). */
export function sceneButtons(mediaId) {
  if (boot.variants.sceneEntry !== 'detail') return [];
  const button = h(
    'button',
    { type: 'button', class: 'add-to-scene-button', 'aria-label': t('addToScene') },
    icon('movie'),
    h('span', {}, t('addToScene')),
  );
  button.addEventListener('click', () => openScene([mediaId]));
  return [button];
}
