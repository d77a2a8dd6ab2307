// The asset grid: pending, failed, image and video tiles, and their download/upscale menus.
import { app, boot, downloadBlob, h, icon, scaled, t } from './dom.js';
import { openPane } from './overlay.js';
import { rpc } from './wire.js';
import { snackbar } from './chrome.js';

let grid = null;

export function assetGrid() {
  grid = h('flow-asset-grid', { class: 'asset-grid' });
  for (const m of boot.project?.media ?? []) {
    if (m.kind === 'image') grid.append(imageTile({ mediaId: m.id, url: m.url, token: m.token, name: m.name, width: m.width, height: m.height }));
    else if (m.status === 3 && m.videoUrl) grid.append(videoTile({ mediaId: m.id, posterUrl: m.url, mp4Url: m.videoUrl, token: m.token, name: m.name }));
    else if (m.status === 6 || m.status === 2) grid.append(pendingTile(m.id));
    else grid.append(failedTile(m.id, t('failed')));
  }
  return grid;
}

export function pendingTile(key) {
  const tile = h('flow-pending-tile', { class: 'queued', 'data-pending-id': key }, h('div', { class: 'pending-spinner' }));
  grid?.prepend(tile);
  return tile;
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
  return h('flow-failed-tile', { class: 'failed-tile', 'data-pending-id': key }, icon('error'), h('span', { class: 'failed-text' }, text));
}

function menuButton(onOpen) {
  const btn = h('button', { type: 'button', class: 'tile-download-button', 'aria-label': t('download') }, icon('download'));
  btn.addEventListener('click', (e) => {
    e.stopPropagation();
    onOpen(btn);
  });
  return btn;
}

function menu(anchor, items) {
  const entry = openPane({
    name: 'download-menu',
    anchor,
    content: h('div', { role: 'menu', class: 'mat-mdc-menu-panel download-menu' }, ...items.map((item) => {
      const el = h('button', { role: 'menuitem', type: 'button', class: `mat-mdc-menu-item${item.disabled ? ' mat-mdc-menu-item-disabled' : ''}`, disabled: item.disabled ? true : null, 'aria-disabled': item.disabled ? 'true' : null }, h('span', { class: 'mat-mdc-menu-item-text' }, item.label));
      if (item.disabled) el.setAttribute('disabled', 'true');
      el.addEventListener('click', () => {
        entry.close();
        item.run().catch(() => snackbar(t('somethingWrong')));
      });
      return el;
    })),
  });
}

async function fetchBlob(url) {
  const res = await fetch(url, { credentials: 'omit' });
  if (!res.ok) throw new Error(`download ${res.status}`);
  return res.blob();
}

export function imageTile({ mediaId, url, token, name, width, height }) {
  const img = h('img', { 'data-media-id': mediaId, src: token ? `/asb/${token}` : url, alt: name, width, height, loading: 'lazy' });
  const ext = 'jpg';
  const open = (anchor) => menu(anchor, [
    { label: '1K', run: async () => downloadBlob(await fetchBlob(url), `${mediaId}.${ext}`) },
    { label: '2K', run: async () => upscale(mediaId, 1, '2k') },
    { label: '4K', disabled: boot.tier !== 'ultra', run: async () => upscale(mediaId, 2, '4k') },
  ]);
  return h('flow-image-tile', { class: 'asset-tile', 'data-media-id': mediaId }, img, h('div', { class: 'tile-actions' }, menuButton(open)));
}

async function upscale(mediaId, res, suffix) {
  const reply = await rpc('SPrCad', [mediaId, res, [null, 22, null, null, null, app.projectId]]);
  const bytes = Uint8Array.from(atob(reply[1]), (c) => c.charCodeAt(0));
  await downloadBlob(new Blob([bytes], { type: 'image/jpeg' }), `${mediaId}_${suffix}.jpg`);
}

export function videoTile({ mediaId, posterUrl, mp4Url, token, name }) {
  const img = h('img', { 'data-media-id': mediaId, src: token ? `/asb/${token}` : posterUrl, alt: name });
  const video = h('video', { preload: 'none', muted: true, playsinline: true, 'data-src': mp4Url });
  const tile = h('flow-video-tile', { class: 'asset-tile', 'data-media-id': mediaId }, img, video);
  // the <video> mounts its source only on hover
  tile.addEventListener('mouseenter', () => {
    if (!video.src) video.src = mp4Url;
  });
  const open = (anchor) => menu(anchor, [
    { label: '270p GIF', disabled: true, run: async () => {} },
    { label: '720p', run: async () => downloadBlob(await fetchBlob(mp4Url), `${mediaId}.mp4`) },
    { label: '1080p', run: async () => upscaleVideo(mediaId) },
  ]);
  tile.append(h('div', { class: 'tile-actions' }, menuButton(open)));
  return tile;
}

async function upscaleVideo(mediaId) {
  const [upId] = await rpc('p0UkFb', [mediaId, [null, 22, null, null, null, app.projectId]]);
  for (let i = 0; i < 200; i += 1) {
    await new Promise((r) => setTimeout(r, scaled(5000)));
    const reply = await rpc('jwpduf', [[upId], app.projectId]);
    const rec = reply?.[2]?.[0]?.[0];
    const url = rec?.[7]?.[0]?.[8];
    if (rec?.[5]?.[8]?.[0] === 3 && url) {
      // Flow hands the 1080p result over as a blob URL
      return downloadBlob(await fetchBlob(url), `${mediaId}_1080p.mp4`);
    }
  }
  throw new Error('upscale timed out');
}

export function replaceTile(oldTile, newTile) {
  if (oldTile && oldTile.isConnected) oldTile.replaceWith(newTile);
  else grid?.prepend(newTile);
}
