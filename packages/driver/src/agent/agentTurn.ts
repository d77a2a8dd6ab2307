import { FlowAgentUiError, TransportTimeoutError, redactText } from '@gflow/errors';
import { IMAGE_MODELS, VIDEO_MODELS } from '@gflow/flow-facts';
import { withIcon } from '../composer/anchors.js';
import { driftError } from '../composer/drift.js';
import { typePrompt } from '../composer/promptText.js';
import { safeClick } from '../composer/safeClick.js';
import { isAllowedMediaUrl } from '../download/allowlist.js';
import { decideSubmit, readShownBalance } from '../composer/costLine.js';
import type { SubmitHook, SubmitQuote } from '../generate/types.js';
import type { OpContext } from '../session/opContext.js';
import { untilDom } from '../util/domWait.js';
import { AG } from './agentSettings.js';

export type AgentKind = 'image' | 'video';

/**
 * The directive the agent gets (flow-wire §4: "Make me a picture of X in a 9:16 aspect ratio.",
 * which beat saved defaults when measured). Always English: it is read by the agent, not shown.
 */
export function agentDirective(kind: AgentKind, prompt: string, aspect: string, count: number): string {
  const noun = kind === 'video' ? 'video' : 'picture';
  const what = count === 1 ? `a ${noun}` : `${count} ${noun}s`;
  return `Make me ${what} of ${prompt.trim().replace(/[.\s]+$/, '')} in a ${aspect} aspect ratio.`;
}

/** What a credit confirmation quotes: the count and the credits, or null where it cannot be read. */
export interface AgentQuote {
  readonly text: string;
  readonly count: number | null;
  readonly credits: number | null;
  /** The model labels the quote names. */
  readonly models: readonly string[];
}

const MODEL_LABELS = [...IMAGE_MODELS, ...VIDEO_MODELS]
  .flatMap((m) => m.menu.map((e) => e.label))
  .sort((a, b) => b.length - a.length);

/**
 * Reads a confirmation's quote [U: its wording was not captured]. Model names are taken out first
 * (they hold digits: "Veo 3.1", "Nano Banana 2"); the numbers left, in reading order, must be
 * exactly two — the count, then the credits. Anything else leaves the count unreadable. Locale
 * digit grouping (1,000 / 1.000 / 1 000) is read as one number.
 */
export function readQuote(text: string): AgentQuote {
  let rest = text;
  const models: string[] = [];
  for (const label of MODEL_LABELS) {
    const at = rest.toLowerCase().indexOf(label.toLowerCase());
    if (at < 0) continue;
    models.push(label);
    rest = `${rest.slice(0, at)} ${rest.slice(at + label.length)}`;
  }
  const numbers = [...rest.matchAll(/\d{1,3}(?:[.,\u00a0\u202f ]\d{3})+(?!\d)|\d+/g)].map((m) =>
    Number(m[0].replace(/\D/g, '')),
  );
  if (numbers.length !== 2)
    return { text, count: null, credits: numbers.length === 1 ? (numbers[0] ?? null) : null, models };
  return { text, count: numbers[0] ?? null, credits: numbers[1] ?? null, models };
}

/** A finished tile the turn added, as the page shows it. */
export interface AgentTile {
  readonly kind: AgentKind;
  /** The tile's picture (`img` src), absolute. */
  readonly picture: string;
  /** A video tile's playable source once hovered, absolute. */
  readonly playable: string | null;
  /** [U] The name the tile shows for its media (its picture's alt text, projects/pageFacts.ts), or null. */
  readonly name: string | null;
}

interface TurnSnapshot {
  readonly busy: boolean;
  readonly pending: number;
  readonly tiles: ReadonlyArray<AgentTile>;
  readonly gates: ReadonlyArray<{ index: number; text: string; open: boolean }>;
  readonly posters: readonly string[];
  readonly lastReply: string;
}

async function snapshot(ctx: OpContext): Promise<TurnSnapshot> {
  // No named helper functions in page callbacks: tsx (esbuild keepNames) wraps them in a __name
  // helper that does not exist in the page (src/pageFunctions.test.ts).
  return ctx.page.evaluate((sel) => {
    const base = location.href;
    const tiles = Array.from(document.querySelectorAll(`${sel.imageTile}, ${sel.videoTile}`)).map((el) => {
      const src = el.querySelector('img')?.getAttribute('src') ?? '';
      const video = el.querySelector('video')?.getAttribute('src') ?? '';
      const alt = (el.querySelector('img')?.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      return {
        kind: (el.tagName.toLowerCase() === sel.videoTile ? 'video' : 'image') as 'image' | 'video',
        picture: src === '' ? '' : new URL(src, base).href,
        playable: video === '' ? null : new URL(video, base).href,
        name: alt === '' ? null : alt,
      };
    });
    const gates = Array.from(document.querySelectorAll(sel.permission)).map((el, index) => ({
      index,
      text: (el.querySelector('p')?.textContent ?? el.textContent ?? '').replace(/\s+/g, ' ').trim(),
      open: !el.classList.contains('read-only'),
    }));
    const replies = Array.from(document.querySelectorAll('flow-agent-message, flow-agent-panel .agent-message'));
    return {
      busy: Array.from(document.querySelectorAll(sel.stop)).some((el) => (el as HTMLElement).offsetParent !== null),
      pending: document.querySelectorAll(sel.pendingTile).length,
      tiles,
      gates,
      posters: Array.from(document.querySelectorAll(`${sel.videoOption} img`)).map(
        (img) => new URL(img.getAttribute('src') ?? '', base).href,
      ),
      lastReply: (replies[replies.length - 1]?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    };
  }, AG);
}

export interface AgentTurnRequest {
  readonly kind: AgentKind;
  readonly directive: string;
  readonly count: number;
  /** The model label the run asked for (a quote naming another one is not approved). */
  readonly modelLabels: readonly string[];
  readonly timeoutMs: number;
  /** The caller's decision before the spend: at the credit confirmation, or before the directive when none is expected. */
  readonly beforeSubmit?: SubmitHook;
  /** A credit confirmation will come ("Confirm before generating: Always" on a video turn, flow-wire §4). */
  readonly gateExpected: boolean;
}

export interface AgentTurnResult {
  readonly tiles: readonly AgentTile[];
  /** The uuids the chat's video options name, this turn only. */
  readonly posters: readonly string[];
  readonly quote: AgentQuote | null;
  readonly lastReply: string;
  /** What the hook was shown last (before the directive, or at the confirmation). */
  readonly submitQuote?: SubmitQuote;
  /** The hook said stop: before the directive (nothing sent), or at the confirmation (rejected). */
  readonly stopped?: 'before-submit' | 'agent-confirmation';
}

function agentError(ctx: OpContext, detail: string, extra: Record<string, unknown> = {}): FlowAgentUiError {
  return new FlowAgentUiError(detail, {
    retryable: false,
    extensions: { ...ctx.spendExtensions(), ...extra },
  });
}

const replyOf = (s: TurnSnapshot): Record<string, unknown> =>
  s.lastReply === '' ? {} : { agent_reply: redactText(s.lastReply).slice(0, 500) };

/** Clicks a gate's option row by its ligature: `check` (the first: Approve) or `close` (Reject). */
async function answerGate(ctx: OpContext, index: number, glyph: 'check' | 'close'): Promise<void> {
  const gate = ctx.page.locator(AG.permission).nth(index);
  const row = withIcon(ctx.page, gate.locator(AG.optionRow), glyph).first();
  if ((await row.count()) === 0)
    throw await driftError(ctx.page, `The credit confirmation has no option row with a ${glyph} icon`, AG.optionRow);
  await safeClick(
    ctx,
    row,
    glyph === 'check' ? 'approving the credit confirmation' : 'rejecting the credit confirmation',
  );
  const answered = await untilDom(
    ctx.page,
    async () => ((await gate.getAttribute('class').catch(() => ''))?.includes('read-only') ? true : undefined),
    { timeoutMs: 5_000, signal: ctx.signal },
  );
  if (answered !== true)
    throw await driftError(ctx.page, 'The credit confirmation did not take the answer', AG.permission);
}

interface GateState {
  approved: number;
  latest: TurnSnapshot;
  sawBusy: boolean;
  submitQuote?: SubmitQuote;
  stopped?: 'agent-confirmation';
}

/**
 * The caller's hook at a confirmation that quotes what was asked: approve (`submit`), or reject it
 * (`stop`, a dry run, or a throw: a refusal, rethrown once the confirmation is rejected).
 */
async function askHook(
  ctx: OpContext,
  req: AgentTurnRequest,
  gate: { index: number; text: string },
  quote: AgentQuote,
  state: GateState,
): Promise<'approve' | 'stop'> {
  const submitQuote: SubmitQuote = {
    credits: quote.credits,
    source: 'agent-confirmation',
    balance: await readShownBalance(ctx),
    text: redactText(gate.text).slice(0, 200),
  };
  state.submitQuote = submitQuote;
  let decision: 'submit' | 'stop';
  try {
    decision = await decideSubmit(ctx, req.beforeSubmit, submitQuote);
  } catch (error) {
    await answerGate(ctx, gate.index, 'close');
    throw error;
  }
  if (decision === 'submit') return 'approve';
  await answerGate(ctx, gate.index, 'close');
  state.stopped = 'agent-confirmation';
  return 'stop';
}

/** Judges an open confirmation; returns the quote when it may be approved, else throws (rejecting or leaving it). */
async function judgeGate(
  ctx: OpContext,
  req: AgentTurnRequest,
  gate: { index: number; text: string },
  state: GateState,
): Promise<AgentQuote> {
  const quote = readQuote(gate.text);
  const detail = { agent_quote: redactText(gate.text).slice(0, 500), ...replyOf(state.latest) };
  if (state.approved > 0) {
    await answerGate(ctx, gate.index, 'close');
    throw agentError(
      ctx,
      'The agent asked for a second credit confirmation after the first was approved; gflow rejected it. The first one may have been spent.',
      detail,
    );
  }
  if (quote.count === null) {
    // Not approved; a video confirmation is left open for you to reject in Flow.
    if (req.kind === 'image') await answerGate(ctx, gate.index, 'close');
    throw agentError(
      ctx,
      `The agent's credit confirmation does not say how many ${req.kind === 'video' ? 'videos' : 'images'} it will make, so gflow did not approve it${req.kind === 'video' ? '; it is still open in Flow — reject it there' : ' and rejected it'}. Nothing was generated.`,
      detail,
    );
  }
  const otherModel = quote.models.find((m) => !req.modelLabels.some((w) => w.toLowerCase() === m.toLowerCase()));
  if (quote.count !== req.count || (req.modelLabels.length > 0 && otherModel !== undefined)) {
    await answerGate(ctx, gate.index, 'close');
    throw agentError(
      ctx,
      `The agent's credit confirmation quotes ${quote.count} ${req.kind === 'video' ? 'video(s)' : 'image(s)'}${otherModel ? ` with ${otherModel}` : ''} where ${req.count}${req.modelLabels[0] ? ` with ${req.modelLabels[0]}` : ''} was asked; gflow rejected it. Nothing was generated.`,
      { ...detail, agent_quoted_count: quote.count },
    );
  }
  if ((await askHook(ctx, req, gate, quote, state)) === 'stop') return quote;
  await answerGate(ctx, gate.index, 'check');
  return quote;
}

/**
 * Runs one agent turn (flow-wire §4): types the directive, submits, answers the credit
 * confirmation(s) and waits until the turn is over — the stop button gone, no pending tile left.
 * Completion is DOM-only: the result is the finished tiles that were not there before.
 */
export async function runAgentTurn(ctx: OpContext, req: AgentTurnRequest): Promise<AgentTurnResult> {
  const before = await snapshot(ctx);
  const seenTiles = new Set(before.tiles.map((t) => t.picture));
  let early: SubmitQuote | undefined;
  if (!req.gateExpected) {
    // No confirmation will quote this turn: the directive is what spends, so the hook decides now.
    early = { credits: null, source: 'none', balance: await readShownBalance(ctx), text: null };
    if ((await decideSubmit(ctx, req.beforeSubmit, early)) === 'stop')
      return { tiles: [], posters: [], quote: null, lastReply: '', submitQuote: early, stopped: 'before-submit' };
  }
  await typePrompt(ctx, req.directive);
  const submit = ctx.page.locator(AG.generate).first();
  if ((await submit.count()) === 0)
    throw await driftError(ctx.page, 'The agent composer has no generate button', AG.generate);
  ctx.check('submitting');
  await ctx.reportSubmitting();
  await safeClick(ctx, submit, 'submitting to the agent');
  ctx.report({ phase: 'generating' });
  const state: GateState = { approved: 0, latest: before, sawBusy: false, ...(early ? { submitQuote: early } : {}) };
  let quote: AgentQuote | null = null;
  const deadline = Date.now() + req.timeoutMs;
  const done = await untilDom(
    ctx.page,
    async () => {
      ctx.check('waiting for the agent');
      const now = await snapshot(ctx);
      state.latest = now;
      if (now.busy || now.pending > 0) state.sawBusy = true;
      const open = now.gates.find((g) => g.index >= before.gates.length && g.open);
      if (open !== undefined && state.stopped === undefined) {
        quote = await judgeGate(ctx, req, open, state);
        if (state.stopped === undefined) state.approved += 1;
        return undefined;
      }
      // Stopped at the confirmation (rejected): wait for the turn to wind down, nothing more.
      if (state.stopped !== undefined) return now.busy ? undefined : now;
      const added = now.tiles.length - before.tiles.length;
      const over = !now.busy && now.pending === 0 && (state.sawBusy || added > 0 || now.lastReply !== before.lastReply);
      return over ? now : undefined;
    },
    { timeoutMs: Math.max(0, deadline - Date.now()), signal: ctx.signal },
  );
  if (state.stopped !== undefined) {
    ctx.afterSubmit = false; // the confirmation was rejected: nothing was generated or spent
    return {
      tiles: [],
      posters: [],
      quote,
      lastReply: '',
      ...(state.submitQuote ? { submitQuote: state.submitQuote } : {}),
      stopped: state.stopped,
    };
  }
  if (done === undefined) {
    if (req.kind === 'video')
      throw new TransportTimeoutError(
        `The agent's video turn made no clip within ${Math.round(req.timeoutMs / 1000)} s. It was already sent, so look in the Flow project before retrying.`,
        { retryable: false, extensions: { ...ctx.spendExtensions(), ...replyOf(state.latest) } },
      );
    throw agentError(
      ctx,
      `The agent's image turn did not finish within ${Math.round(req.timeoutMs / 1000)} s.`,
      replyOf(state.latest),
    );
  }
  // Video tiles mount their source on hover (flow-captures.md §2).
  const fresh = done.tiles.filter((t) => !seenTiles.has(t.picture));
  const videoTiles = ctx.page.locator(AG.videoTile);
  const count = await videoTiles.count();
  for (let i = 0; i < count; i += 1) {
    const pic = await videoTiles
      .nth(i)
      .locator('img')
      .first()
      .evaluate((img) => (img as HTMLImageElement).src)
      .catch(() => '');
    if (fresh.some((t) => t.kind === 'video' && t.picture === pic))
      await videoTiles
        .nth(i)
        .hover()
        .catch(() => undefined);
  }
  const after = fresh.some((t) => t.kind === 'video') ? await snapshot(ctx) : done;
  const tiles = after.tiles.filter((t) => !seenTiles.has(t.picture));
  return {
    tiles,
    posters: after.posters.slice(before.posters.length),
    quote,
    lastReply: after.lastReply === before.lastReply ? '' : after.lastReply,
    ...(state.submitQuote ? { submitQuote: state.submitQuote } : {}),
  };
}

/** The uuid a Flow CDN URL names (`flow-content.google/{image,video}/<uuid>`), or null. */
export function uuidOfCdnUrl(url: string): string | null {
  const m =
    /^https:\/\/flow-content\.google\/(?:image|video)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[?#]|$)/i.exec(
      url,
    );
  return m?.[1]?.toLowerCase() ?? null;
}

/**
 * Where an opaque `/asb/…` URL leads (flow-captures.md §2: an image to the CDN, a video to
 * googlevideo), asked from inside the page (the URL is session-gated). Only allowlisted hosts.
 */
export async function resolveOpaque(ctx: OpContext, url: string): Promise<string> {
  if (!isAllowedMediaUrl(url))
    throw agentError(ctx, `The agent's tile points at ${redactText(url)}, not a Flow media host.`);
  const final = await ctx.page.evaluate(async (target) => {
    const abort = new AbortController();
    try {
      const res = await fetch(target, { credentials: 'same-origin', redirect: 'follow', signal: abort.signal });
      abort.abort();
      return res.ok ? res.url : '';
    } catch {
      return '';
    }
  }, url);
  if (final === '' || !isAllowedMediaUrl(final))
    throw agentError(ctx, `The agent's tile ${redactText(url)} did not lead to a Flow media host.`);
  return final;
}
