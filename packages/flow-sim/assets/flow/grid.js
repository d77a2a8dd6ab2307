// The asset grid: pending, failed, image and video tiles. Download and upscale choices live in a
// tile's detail view (opened by clicking the tile), not on the tile (flow-captures.md §8).
import { app, boot, downloadBlob, h, icon, scaled, t, uuid } from './dom.js';
import { openPane } from './overlay.js';
import { rpc } from './wire.js';
import { snackbar } from './chrome.js';
import { sceneButtons } from './sceneEntry.js';

let grid = null;

export function assetGrid() {
  grid = h('flow-asset-grid', { class: 'asset-grid' });
  for (const m of boot.project?.media ?? []) {
    if (m.kind === 'image' && m.status !== 3) pendingImageTile(m.id);
    else if (m.kind === 'image')
      grid.append(
        imageTile({ mediaId: m.id, url: m.url, token: m.token, name: m.name, width: m.width, height: m.height }),
      );
    else if (m.status === 3 && m.videoUrl)
      grid.append(videoTile({ mediaId: m.id, posterUrl: m.url, mp4Url: m.videoUrl, token: m.token, name: m.name }));
    else if (m.status === 6 || m.status === 2) grid.append(pendingTile(m.id));
    else grid.append(failedTile(m.id, t('failed')));
  }
  return grid;
}

export function pendingTile(key) {
  const tile = h(
    'flow-pending-tile',
    { class: 'queued', 'data-pending-id': key },
    h('div', { class: 'pending-spinner' }),
  );
  grid?.prepend(tile);
  return tile;
}

/**
 * [U] An image still generating when the project loads (variant pendingImage): a pending tile with
 * no media id, the same tile carrying it, or nothing. The page does not follow it: a later load shows it.
 */
function pendingImageTile(mediaId) {
  const variant = boot.variants.pendingImage;
  if (variant === 'unlisted') return;
  const tile = pendingTile(uuid());
  const id = tileId(mediaId);
  if (variant === 'tile-media-id' && id !== null) tile.setAttribute('data-media-id', id);
}

export function setProgress(tile, percent) {
  tile.classList.remove('queued');
  let p = tile.querySelector('.loading-percentage');
  if (!p) {
    p = h('div', { class: 'loading-percentage' });
    tile.append(p);
  }
  p.textContent = `${percent}%`;
}

export function failedTile(key, text) {
  return h(
    'flow-failed-tile',
    { class: 'failed-tile', 'data-pending-id': key },
    icon('error'),
    h('span', { class: 'failed-text' }, text),
  );
}

let detail = null;

function closeDetail() {
  detail?.remove();
  detail = null;
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && detail && !document.querySelector('.cdk-overlay-pane [role="menu"]')) closeDetail();
});

/**
 * The detail view of one asset [U: its DOM was not captured; the menu's entries were]: the media
 * large, a back button and the download button whose menu holds the sizes, labels localised.
 */
function openDetail(media, items, extra = []) {
  closeDetail();
  const back = h(
    'button',
    { type: 'button', class: 'detail-back-button', 'aria-label': t('detailClose') },
    icon('arrow_back'),
  );
  back.addEventListener('click', closeDetail);
  const btn = h(
    'button',
    { type: 'button', class: 'detail-download-button', 'aria-label': t('download') },
    icon('download'),
  );
  btn.addEventListener('click', () => menu(btn, items));
  detail = h(
    'flow-asset-detail-view',
    { class: 'asset-detail-view' },
    h('div', { class: 'detail-toolbar' }, back, ...extra, btn),
    h('div', { class: 'detail-media' }, media),
  );
  document.body.append(detail);
}

function menu(anchor, items) {
  const entry = openPane({
    name: 'download-menu',
    anchor,
    content: h(
      'div',
      { role: 'menu', class: 'mat-mdc-menu-panel download-menu' },
      ...items.map((item) => {
        const el = h(
          'button',
          {
            role: 'menuitem',
            type: 'button',
            class: `mat-mdc-menu-item${item.disabled ? ' mat-mdc-menu-item-disabled' : ''}`,
            disabled: item.disabled ? true : null,
            'aria-disabled': item.disabled ? 'true' : null,
          },
          h('span', { class: 'mat-mdc-menu-item-text' }, item.label),
          // A tier the account lacks shows an upgrade call to action beside the disabled entry.
          item.disabled ? h('span', { class: 'upgrade-cta' }, t('dlUpgrade')) : null,
        );
        if (item.disabled) el.setAttribute('disabled', 'true');
        el.addEventListener('click', () => {
          entry.close();
          item.run().catch(() => snackbar(t('somethingWrong')));
        });
        return el;
      }),
    ),
  });
}

async function fetchBlob(url) {
  const res = await fetch(url, { credentials: 'omit' });
  if (!res.ok) throw new Error(`download ${res.status}`);
  return res.blob();
}

/** Agent-only accounts' tiles carry no media id at all (flow-captures.md §2). */
const tileId = (mediaId) => (boot.cohort === 'agent_only' ? null : mediaId);

/** [U] A tile's picture names its media (the library's name) as its alt text, or names nothing (variant tileName). */
export const tileAlt = (name) => (boot.variants.tileName === 'alt' ? (name ?? '') : '');

export function imageTile({ mediaId, url, token, name, width, height }) {
  const img = h('img', {
    'data-media-id': tileId(mediaId),
    src: token ? `/asb/${token}` : url,
    alt: tileAlt(name),
    width,
    height,
    loading: 'lazy',
  });
  const items = [
    { label: t('dl1k'), run: async () => downloadBlob(await fetchBlob(url), `${mediaId}.jpg`) },
    { label: t('dl2k'), run: async () => upscale(mediaId, 1, '2k') },
    { label: t('dl4k'), disabled: boot.tier !== 'ultra', run: async () => upscale(mediaId, 2, '4k') },
  ];
  const tile = h('flow-image-tile', { class: 'asset-tile', 'data-media-id': tileId(mediaId) }, img);
  tile.addEventListener('click', () => openDetail(h('img', { src: img.src, alt: name }), items));
  return tile;
}

async function upscale(mediaId, res, suffix) {
  const reply = await rpc('SPrCad', [mediaId, res, [null, 22, null, null, null, app.projectId]]);
  const bytes = Uint8Array.from(atob(reply[1]), (c) => c.charCodeAt(0));
  await downloadBlob(new Blob([bytes], { type: 'image/jpeg' }), `${mediaId}_${suffix}.jpg`);
}

export function videoTile({ mediaId, posterUrl, mp4Url, token, name }) {
  const img = h('img', {
    'data-media-id': tileId(mediaId),
    src: token ? `/asb/${token}` : posterUrl,
    alt: tileAlt(name),
  });
  // A loaded tile plays from its opaque /asb/ URL, which redirects to googlevideo (flow-captures.md §2).
  const playable = token && boot.variants.videoTileSrc === 'asb-redirect' ? `/asb/${token}=v` : mp4Url;
  const video = h('video', { preload: 'none', muted: true, playsinline: true });
  const tile = h('flow-video-tile', { class: 'asset-tile', 'data-media-id': tileId(mediaId) }, img, video);
  // the <video> mounts its source only on hover
  tile.addEventListener('mouseenter', () => {
    if (!video.getAttribute('src')) video.src = playable;
  });
  const items = [
    // The 270p animated GIF export is enabled (measured 2026-09-30).
    { label: t('dlGif'), run: async () => downloadBlob(await fetchBlob(gifUrlOf(mp4Url)), `${mediaId}.gif`) },
    { label: t('dl720'), run: async () => downloadBlob(await fetchBlob(mp4Url), `${mediaId}.mp4`) },
    { label: t('dl1080'), run: async () => upscaleVideo(mediaId) },
  ];
  tile.addEventListener('click', () =>
    openDetail(h('video', { src: playable, controls: true, muted: true }), items, sceneButtons(mediaId)),
  );
  return tile;
}

/** The GIF export lives beside the clip on the CDN: the clip's signature and id, a `/gif/` path [U]. */
function gifUrlOf(mp4Url) {
  const url = new URL(mp4Url);
  return `https://flow-content.google/gif/${url.pathname.split('/').pop()}${url.search}`;
}

async function upscaleVideo(mediaId) {
  const [upId] = await rpc('p0UkFb', [mediaId, [null, 22, null, null, null, app.projectId]]);
  const since = Date.now();
  while (Date.now() - since < 15 * 60_000) {
    await new Promise((r) => setTimeout(r, scaled(5000)));
    const reply = await rpc('jwpduf', [[upId], app.projectId]);
    const rec = reply?.[2]?.[0]?.[0];
    if (rec?.[5]?.[8]?.[0] !== 3) continue;
    // The poll says done without URLs; the URL-carrying record comes from as29s (flow-captures.md §4).
    const full = rec?.[7]?.[0]?.[8] ? rec : await rpc('as29s', [upId]).catch(() => null);
    const url = Array.isArray(full) ? full[7]?.[0]?.[8] : null;
    // Flow hands the 1080p result over as a blob URL
    if (url) return downloadBlob(await fetchBlob(url), `${mediaId}_1080p.mp4`);
  }
  throw new Error('upscale timed out');
}

export function replaceTile(oldTile, newTile) {
  if (oldTile && oldTile.isConnected) oldTile.replaceWith(newTile);
  else grid?.prepend(newTile);
}
