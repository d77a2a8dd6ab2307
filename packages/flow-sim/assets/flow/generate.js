// Submit: the page builds the wire from pane state, sends it, and follows the job to a tile.
import { app, boot, scaled, t, uuid } from './dom.js';
import { snackbar } from './chrome.js';
import { clearComposer, frames, mentions, promptText, renderSubmit } from './composer.js';
import { failedTile, imageTile, pendingTile, replaceTile, setProgress, videoTile } from './grid.js';
import { currentCost, currentImageModel, currentVideoModel, imageAspect, settings, videoAspect } from './settings.js';
import { clientContext, promptStruct, recaptchaToken, rpc, RpcRefusalError } from './wire.js';

function expand(model, mode, seconds) {
  if (mode === 't2v' && seconds === 8 && model.keys.t2v8) return model.keys.t2v8;
  const template = model.keys[mode];
  if (!template) return null;
  return template
    .replace('{d}', seconds === 8 ? '' : `_${seconds}s`)
    .replace('{dur}', `${seconds}s`)
    .replace('{omni12}', boot.variants.omni12Key);
}

/** Decides rpc id, model key and bound ids the way the app does (including its quirks). */
export function planVideo() {
  const model = currentVideoModel();
  const seconds = settings.duration;
  let mode = 't2v';
  let frameIds = null;
  let refs = null;
  if (settings.submode === 'frames') {
    // An empty Start chip submits t2v, as the real app does.
    // Above 10 s Flow drops the end frame and makes a start-only clip (seed 000, #1178).
    if (frames.start && frames.end && model.keys.interp && seconds <= 10) mode = 'interp';
    else if (frames.start && model.keys.i2v) mode = 'i2v';
    if (mode !== 't2v') frameIds = [frames.start.id, mode === 'interp' ? frames.end.id : null];
  } else {
    const chips = mentions();
    if (chips.length > 0) {
      refs = chips.map((c) => [null, 1, c.id, c.type]);
      // Below 8 s r2v degrades to a t2v key (chips flattened, ids still present).
      mode = seconds === 8 && model.keys.r2v ? 'r2v' : 't2v';
    }
  }
  if (boot.wrongSubmitBody) {
    // wrong_submit_body: the page drops the bound frames and references and submits text-to-video.
    mode = 't2v';
    frameIds = null;
    refs = null;
  }
  const rpcId = { t2v: 'YhhmEf', i2v: 'eb1hJf', interp: 'nprQif', r2v: 'MZZa6b' }[mode];
  return { rpcId, key: expand(model, mode, seconds), frameIds, refs, mode };
}

function refusalText(err) {
  if (err instanceof RpcRefusalError) {
    const reason = err.error?.[2]?.[0]?.[1]?.[0];
    return `${t('somethingWrong')} (${err.code}${reason ? ` ${reason}` : ''})`;
  }
  return `${t('somethingWrong')} (${err.status ?? ''})`;
}

function spend(n) {
  app.credits -= n;
  app.emit('credits');
}

export async function submitClassic() {
  const prompt = promptText();
  if (!prompt) return;
  const token = await recaptchaToken();
  const ctx = clientContext(app.projectId, token);
  const cost = currentCost();
  setTimeout(() => rpc('WuwhI', [prompt, app.projectId]).catch(() => {}), scaled(18000));
  const submitted = settings.mode === 'image' ? submitImage(prompt, ctx, cost) : submitVideo(prompt, ctx, cost);
  // [U] what the composer shows once a submit is on its way: what it held (default), or nothing.
  if (boot.variants.composerAfterSubmit === 'clear') clearComposer();
  return submitted;
}

async function submitImage(prompt, ctx, cost) {
  const count = settings.count;
  // Media and character (entity) mentions alike; the type slot is the sim's reading [U].
  const refs = mentions().map((c) => [null, 1, c.id, c.type]);
  // wrong_submit_body: the page sends another model's token than the menu shows.
  const token = boot.wrongSubmitBody
    ? boot.models.image.find((m) => m.token !== currentImageModel().token).token
    : currentImageModel().token;
  const inner = [[promptStruct(prompt), token, imageAspect().index, count, refs], ctx, [uuid(), 1]];
  const pendings = Array.from({ length: count }, () => pendingTile(uuid()));
  try {
    const reply = await rpc('ogiZ0b', inner);
    const media = (boot.variants.imageReply === 'wrapped' ? reply?.[1]?.[0] : reply?.[0]) ?? [];
    if (media.length === 0) {
      for (const p of pendings) replaceTile(p, failedTile('policy', t('policy')));
      return;
    }
    spend(cost);
    // The tile names the image as the library does: its WORKFLOW's title (`[wf, null, null, [title, …, mediaId, …], pid]`).
    const workflows = (boot.variants.imageReply === 'wrapped' ? reply?.[2]?.[0] : reply?.[1]) ?? [];
    const titleOf = (mediaId) => workflows.find((w) => w?.[3]?.[4] === mediaId)?.[3]?.[0] ?? '';
    media.forEach((m, i) => {
      const details = m[6][0];
      replaceTile(
        pendings[i],
        imageTile({ mediaId: m[0], url: details[13], name: titleOf(m[0]), width: m[6][2][0], height: m[6][2][1] }),
      );
    });
  } catch (err) {
    for (const p of pendings) replaceTile(p, failedTile('error', t('failed')));
    snackbar(refusalText(err));
  }
}

const jobs = new Map();
let unknownJobs = 0;
let pollTimer = null;

async function submitVideo(prompt, ctx, cost) {
  const plan = planVideo();
  const requests = Array.from({ length: settings.count }, () => [
    promptStruct(prompt),
    plan.key,
    videoAspect().index,
    null,
    [null, null, null, null, uuid(), uuid()],
    plan.frameIds,
    plan.refs,
    settings.resolution,
  ]);
  const inner = [requests, ctx, [uuid(), 1]];
  const pendings = requests.map(() => pendingTile(uuid()));
  try {
    const reply = await rpc(plan.rpcId, inner, {
      noRpcids: plan.rpcId === 'nprQif',
      allowNullStatus: plan.rpcId === 'MZZa6b',
    });
    spend(cost);
    if (reply && reply.nullStatus) {
      // MZZa6b answered [5] with no payload: the job is queued anyway; follow the project poll.
      unknownJobs += pendings.length;
      pendings.forEach((p) => jobs.set(`unknown-${uuid()}`, { tile: p, unknown: true, since: Date.now() }));
    } else {
      // A clip's title is its summary's (`[mediaId, null, null, [title, …], pid]`): what its tile will name.
      const titles = new Map((reply?.[2] ?? []).map((s) => [s?.[0], s?.[3]?.[0] ?? '']));
      (reply?.[3] ?? []).forEach(([rec], i) =>
        jobs.set(rec[2], {
          tile: pendings[i],
          workflowId: rec[0],
          status: rec[5][8][0],
          since: Date.now(),
          name: titles.get(rec[2]) ?? '',
        }),
      );
    }
    ensurePolling();
  } catch (err) {
    for (const p of pendings) replaceTile(p, failedTile('error', t('failed')));
    snackbar(refusalText(err));
  }
}

export function resumeJobs() {
  for (const m of boot.project?.media ?? []) {
    if (m.kind !== 'video' || !(m.status === 6 || m.status === 2 || (m.status === 3 && !m.videoUrl))) continue;
    const tile = document.querySelector(`[data-pending-id="${m.id}"]`) ?? pendingTile(m.id);
    jobs.set(m.id, { tile, workflowId: m.workflowId, status: m.status, since: Date.now(), name: m.name });
  }
  if (jobs.size > 0) ensurePolling();
}

function ensurePolling() {
  if (pollTimer) return;
  // jwpduf is a fixed 5 s client timer on Flow (scaled here)
  let busy = false;
  pollTimer = setInterval(() => {
    if (busy) return;
    busy = true;
    poll()
      .catch(() => {})
      .finally(() => (busy = false));
  }, scaled(5000));
}

function isRecord(x) {
  return (
    Array.isArray(x) &&
    typeof x[0] === 'string' &&
    typeof x[2] === 'string' &&
    Array.isArray(x[5]) &&
    Array.isArray(x[7])
  );
}

async function poll() {
  const known = [...jobs.entries()].filter(([, j]) => !j.unknown).map(([id]) => id);
  if (jobs.size === 0) {
    clearInterval(pollTimer);
    pollTimer = null;
    return;
  }
  const reply = await rpc('jwpduf', [unknownJobs > 0 ? [] : known, app.projectId]);
  for (const wrapper of reply?.[2] ?? []) {
    const rec = wrapper?.[0];
    if (!isRecord(rec)) continue;
    let job = jobs.get(rec[2]);
    if (!job && unknownJobs > 0) {
      const slot = [...jobs.entries()].find(([, j]) => j.unknown);
      const created = rec[5][0][0] * 1000;
      if (slot && created >= slot[1].since - 60_000) {
        jobs.delete(slot[0]);
        unknownJobs -= 1;
        job = { tile: slot[1].tile, workflowId: rec[0] };
        jobs.set(rec[2], job);
      }
    }
    if (!job) continue;
    await advance(rec[2], job, rec);
  }
}

async function advance(mediaId, job, rec) {
  const status = rec[5][8][0];
  job.status = status;
  if (status === 6) return;
  if (status === 2) return setProgress(job.tile, Math.min(99, Math.round((Date.now() - job.since) / scaled(400))));
  if (status !== 3) {
    jobs.delete(mediaId);
    replaceTile(job.tile, failedTile(mediaId, t('failed')));
    return;
  }
  // Done: the URL-carrying record comes from as29s 2–8 s later (flow-captures.md §4); give up after a minute.
  job.doneSeenAt ??= Date.now();
  if (job.lastFetchAt !== undefined && Date.now() - job.lastFetchAt < 1000) return;
  job.lastFetchAt = Date.now();
  const full = await rpc('as29s', [job.workflowId]);
  if (!isRecord(full)) return;
  const poster = full[5][10];
  const mp4 = full[7][0][8];
  if (!mp4 && !poster) {
    if (Date.now() - job.doneSeenAt > 60_000) jobs.delete(mediaId);
    return;
  }
  jobs.delete(mediaId);
  replaceTile(job.tile, videoTile({ mediaId, posterUrl: poster, mp4Url: mp4, name: job.name ?? '' }));
}

export function afterSubmitRender() {
  renderSubmit();
}
