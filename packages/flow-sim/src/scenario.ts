import type { AgentSettings } from './state/library.js';
import { agentSettingsOf } from './state/agentSettings.js';
import { clipFrameFor } from './media/catalogMedia.js';
import { newAccount, normalizeEmail, viewOf } from './state/accounts.js';
import type { Account } from './state/accounts.js';
import { latencyScale } from './state/latency.js';
import { HELD_URL_GAP, type SimState } from './state/simState.js';
import type {
  AccountInit,
  AccountView,
  CharacterInit,
  Cohort,
  FailureName,
  FailureOptions,
  LatencySetting,
  ProjectInit,
  SimLocale,
  UrlDelay,
} from './types.js';
import { type InstructionCardInit, copyBrief, makeCard, seedTitle } from './state/brief.js';
import { readImageSize } from './media/imageSize.js';
import { makePng } from './media/png.js';
import { type Variants, checkVariants, defaultVariants } from './variants.js';
import { type DriftName, checkDrift } from './drift.js';

/** An instruction card as the scenario reports it. */
export interface InstructionCardView {
  id: string;
  title: string;
  text: string;
  enabled: boolean;
  imageMediaIds: string[];
  characterIds: string[];
}

/** The typed scenario API: accounts, cohorts, failures, latency, locale and seeded content. */
export class Scenario {
  readonly #state: SimState;

  constructor(state: SimState) {
    this.#state = state;
  }

  #account(email: string): Account {
    const account = this.#state.account(normalizeEmail(email));
    if (account === undefined) throw new Error(`no such account: ${email}`);
    return account;
  }

  #changed<T>(value: T): T {
    this.#state.onChange();
    return value;
  }

  /** Creates (or replaces the settings of) an account. */
  createAccount(init: AccountInit): AccountView {
    const fresh = newAccount(init);
    const existing = this.#state.accounts.get(fresh.email);
    const account =
      existing === undefined
        ? fresh
        : Object.assign(existing, { ...fresh, sessionGeneration: existing.sessionGeneration });
    this.#state.accounts.set(account.email, account);
    return this.#changed(viewOf(account));
  }

  getAccount(email: string): AccountView | undefined {
    const account = this.#state.account(email);
    return account === undefined ? undefined : viewOf(account);
  }

  updateAccount(email: string, patch: Partial<Omit<AccountInit, 'email'>>): AccountView {
    const account = this.#account(email);
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) Object.assign(account, { [key]: value });
    return this.#changed(viewOf(account));
  }

  setCohort(email: string, cohort: Cohort): void {
    this.#account(email).cohort = cohort;
    this.#state.onChange();
  }

  setFlowAccess(email: string, flowAccess: boolean): void {
    this.#account(email).flowAccess = flowAccess;
    this.#state.onChange();
  }

  setCredits(email: string, credits: number): void {
    this.#account(email).credits = credits;
    this.#state.onChange();
  }

  getCredits(email: string): number {
    return this.#account(email).credits;
  }

  /** Invalidates every cookie minted for the account (a dead Google session). */
  signOut(email: string): void {
    this.#account(email).sessionGeneration += 1;
    this.#state.onChange();
  }

  setFailure(scope: string, name: FailureName, options: FailureOptions = {}): void {
    this.#state.failures.set(scope === '*' ? '*' : normalizeEmail(scope), name, options);
  }

  clearFailure(scope: string, name: FailureName): void {
    this.#state.failures.clear(scope === '*' ? '*' : normalizeEmail(scope), name);
  }

  clearFailures(scope?: string): void {
    this.#state.failures.clear(scope === undefined || scope === '*' ? scope : normalizeEmail(scope));
  }

  listFailures(): { scope: string; name: FailureName; options: FailureOptions }[] {
    return this.#state.failures.list();
  }

  setLatency(latency: LatencySetting): void {
    this.#state.scale = latencyScale(latency);
    this.#state.latency = latency;
  }

  /**
   * Whether a finished clip's URL gap (2–8 s measured, flow-captures.md §4) follows the latency
   * setting (`'scaled'`, the default) or stays measured at every setting (`'measured'`); clips
   * submitted from now on.
   */
  setUrlDelay(mode: UrlDelay): void {
    if (mode !== 'measured' && mode !== 'scaled')
      throw new RangeError(`urlDelay must be 'measured' or 'scaled', got ${String(mode)}`);
    this.#state.urlDelay = mode;
  }

  /**
   * Test and bench control, not a wire shape: gives every clip submitted from now on one URL gap,
   * drawn once as each clip's is (setUrlDelay), so that runs compared side by side wait the same
   * time for Flow's URLs; returns it in milliseconds. `unpinUrlGap()` draws per clip again.
   */
  pinUrlGap(): number {
    this.#state.pinnedUrlGap = null;
    const gap = this.#state.drawUrlGap();
    this.#state.pinnedUrlGap = gap;
    return gap;
  }

  /** Every clip's URL gap drawn on its own again (the default). */
  unpinUrlGap(): void {
    this.#state.pinnedUrlGap = null;
  }

  /**
   * Test control, not a wire shape: every clip submitted from now on reports status 3 without its
   * signed URLs (the normal first state, flow-captures.md §4) until `releaseVideoUrls()`, so a test
   * sees that state on as many polls as it waits for, whatever the machine's pace.
   */
  holdVideoUrls(): void {
    this.#state.urlsHeld = true;
  }

  /** The held clips' URLs exist from now (or from their end, if later); new clips draw their gap again. */
  releaseVideoUrls(): void {
    this.#state.urlsHeld = false;
    const now = Date.now();
    for (const media of this.#state.library.media.values()) {
      const job = media.video;
      if (job !== undefined && job.urlAt >= HELD_URL_GAP && job.doneAt < HELD_URL_GAP)
        job.urlAt = Math.max(now, job.doneAt);
    }
    this.#state.onChange();
  }

  /** Sets the drift switches on (drift.ts), replacing the earlier ones (`[]`: none); pages read them at their next load. */
  setDrift(names: readonly DriftName[]): DriftName[] {
    this.#state.drift = checkDrift(names);
    return [...this.#state.drift];
  }

  /** The drift switches on. */
  getDrift(): DriftName[] {
    return [...this.#state.drift];
  }

  /** Sets variant switches (variants.ts); pages read them at their next load. */
  setVariants(patch: Partial<Variants>): Variants {
    Object.assign(this.#state.variants, checkVariants(patch));
    return { ...this.#state.variants };
  }

  /** Every variant back to its default (the captured behaviour). */
  resetVariants(): Variants {
    Object.assign(this.#state.variants, defaultVariants());
    return { ...this.#state.variants };
  }

  getVariants(): Variants {
    return { ...this.#state.variants };
  }

  setLocale(locale: SimLocale): void {
    this.#state.locale = locale;
  }

  /** Lifetime of signed content URLs (default 6 h); 0 makes new URLs expire at once. */
  setUrlTtl(seconds: number): void {
    this.#state.urlTtlSeconds = seconds;
  }

  createProject(email: string, init: ProjectInit = {}): { id: string; title: string } {
    const account = this.#account(email);
    const project = this.#state.library.createProject(account.email, init.title ?? 'Untitled project', Date.now());
    for (const text of init.instructions ?? [])
      project.brief.cards.push(makeCard(this.#state.random, { title: seedTitle(project.brief), text }));
    return this.#changed({ id: project.id, title: project.title });
  }

  /** Adds an enabled card with this text, titled "Instruction N" (the first free N). */
  addInstruction(projectId: string, text: string): InstructionCardView {
    const brief = this.#project(projectId).brief;
    return this.addInstructionCard(projectId, { title: seedTitle(brief), text });
  }

  /** Adds an instruction card to a project's brief (titles are not checked for uniqueness, as Flow's may not be). */
  addInstructionCard(projectId: string, init: InstructionCardInit): InstructionCardView {
    const card = makeCard(this.#state.random, init);
    this.#project(projectId).brief.cards.push(card);
    return this.#changed(copyBrief({ enabled: true, cards: [card] }).cards[0] as InstructionCardView);
  }

  /** A copy of a project's brief: the master switch and its cards in order. */
  briefOf(projectId: string): { enabled: boolean; cards: InstructionCardView[] } {
    return copyBrief(this.#project(projectId).brief);
  }

  /** Turns a project's brief on or off as a whole (the master switch). */
  setBriefEnabled(projectId: string, enabled: boolean): void {
    this.#project(projectId).brief.enabled = enabled;
    this.#state.onChange();
  }

  addCharacter(projectId: string, init: CharacterInit): { entityId: string; thumbnailMediaId: string } {
    const project = this.#project(projectId);
    const thumb = this.addUpload(
      project.owner,
      projectId,
      `${init.displayName}.png`,
      makePng(512, 512, init.displayName),
    );
    const entityId = this.#state.library.uuid();
    project.characters.push({
      entityId,
      projectId,
      displayName: init.displayName,
      personalityNotes: init.personalityNotes ?? '',
      voice: init.voice ?? 'kore',
      thumbnailMediaId: thumb.mediaId,
    });
    return this.#changed({ entityId, thumbnailMediaId: thumb.mediaId });
  }

  /** Puts a file in an account's library as if uploaded earlier (no maseQ is recorded). */
  addUpload(email: string, projectId: string, fileName: string, bytes: Buffer): { mediaId: string } {
    const account = this.#account(email);
    const size = readImageSize(bytes);
    const media = this.#state.library.addMedia({
      projectId,
      owner: account.email,
      kind: 'upload',
      name: fileName,
      prompt: '',
      model: 'upload',
      aspectIndex: 3,
      width: size?.width ?? 512,
      height: size?.height ?? 512,
      seed: 0,
      createdAt: Date.now() - 60_000,
      bytes,
      mimeType: size?.format === 'jpeg' ? 'image/jpeg' : 'image/png',
      hiddenForSearches: 0,
    });
    return this.#changed({ mediaId: media.id });
  }

  projectsOf(email: string): { id: string; title: string }[] {
    return this.#state.library.projectsOf(this.#account(email).email).map((p) => ({ id: p.id, title: p.title }));
  }

  /** The agent-only composer's saved settings of a project (flow-wire §4). */
  agentSettingsOf(projectId: string): AgentSettings {
    return { ...agentSettingsOf(this.#state, this.#project(projectId)) };
  }

  setAgentSettings(projectId: string, patch: Partial<AgentSettings>): AgentSettings {
    const project = this.#project(projectId);
    project.agent = { ...agentSettingsOf(this.#state, project), ...patch };
    return this.#changed({ ...project.agent });
  }

  /** The generated media of a project (uploads excluded), newest first. */
  mediaOf(projectId: string): { id: string; kind: 'image' | 'video'; prompt: string; width: number; height: number }[] {
    return this.#state.library
      .mediaOfProject(this.#project(projectId).id)
      .flatMap((m) =>
        m.kind === 'upload' ? [] : [{ id: m.id, kind: m.kind, prompt: m.prompt, width: m.width, height: m.height }],
      );
  }

  /**
   * Test control: a generated image still being made (`false`: a project load shows it pending,
   * per the variant pendingImage) or done (`true`: as once its reply time has come). Lets a test
   * hold an image pending across loads and finish it when it chooses, whatever the machine's pace.
   */
  setImageReady(mediaId: string, ready: boolean): void {
    const media = this.#state.library.media.get(mediaId);
    if (media?.kind !== 'image') throw new Error(`no such generated image: ${mediaId}`);
    media.readyAt = ready ? Date.now() : Number.MAX_SAFE_INTEGER;
    this.#state.onChange();
  }

  /** What a finished clip's first or last frame shows (its encoder's input, not a decode): `{width, height, rgb}`. */
  expectedFrame(mediaId: string, which: 'first' | 'last'): { width: number; height: number; rgb: Uint8Array } {
    const media = this.#state.library.media.get(mediaId);
    if (media?.kind !== 'video') throw new Error(`no such clip: ${mediaId}`);
    return clipFrameFor(this.#state, media, which);
  }

  /**
   * A scene of the project holding these finished clips on its timeline, in order (a scene made
   * ahead of a run; how Flow puts a clip on a scene is [U], the page's own ways are in the README).
   */
  createScene(projectId: string, mediaIds: string[] = []): { id: string; url: string } {
    const project = this.#project(projectId);
    const scene = this.#state.scenes.create({ projectId, owner: project.owner, clipIds: mediaIds, now: Date.now() });
    return { id: scene.id, url: `https://flow.google.com/project/${projectId}/scene/${scene.id}` };
  }

  /** The media ids on a scene's timeline, first to last (an extension joins at the end when it is submitted). */
  sceneClips(sceneId: string): string[] {
    const scene = this.#state.scenes.get(sceneId);
    if (scene === undefined) throw new Error(`no such scene: ${sceneId}`);
    return [...scene.clipIds];
  }

  /** What a clip is: its workflow id, length, and for an extension the clip it continues and the source frame (0-based) it starts at. */
  clipOf(mediaId: string): {
    workflowId: string;
    seconds: number;
    extendsFrom: { mediaId: string; fromFrame: number } | null;
  } {
    const media = this.#state.library.media.get(mediaId);
    if (media?.kind !== 'video') throw new Error(`no such clip: ${mediaId}`);
    return {
      workflowId: media.workflowId,
      seconds: media.video?.seconds ?? 8,
      extendsFrom: media.video?.extendsFrom ?? null,
    };
  }

  #project(projectId: string) {
    const project = this.#state.library.projects.get(projectId);
    if (project === undefined) throw new Error(`no such project: ${projectId}`);
    return project;
  }
}
