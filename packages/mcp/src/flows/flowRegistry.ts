import { createHash } from 'node:crypto';
import type { GflowLogger } from '../gflowPort.js';
import type {
  CompiledFlow,
  CompiledPrompt,
  CompiledResource,
  CompiledResourceTemplate,
  CompiledTool,
  FlowListKind,
} from './compiledFlow.js';
import { compileFlow, type CompileEnvironment } from './compileFlow.js';
import { listFlowFiles, readFlowSource } from './flowFiles.js';
import { formatFlowProblem, type FlowProblem } from './flowProblem.js';
import { watchFlowDirs, type FlowWatcher } from './flowWatcher.js';
import { findClash, type ReservedNames } from './nameClash.js';
import { parseFlowFile } from './parseFlowFile.js';

/** Which MCP lists a reload changed; absent keys did not change. */
export type FlowListChange = Partial<Record<FlowListKind, true>>;

export interface FlowRegistryOptions {
  readonly dirs: readonly string[];
  readonly environment: CompileEnvironment;
  readonly reserved: ReservedNames;
  readonly logger: GflowLogger;
}

/**
 * The declarative flows of one process: every flow file of the flows
 * directories, compiled, with the entries each owns. Server instances read
 * the current entries when they are built and follow `onChange` afterwards.
 * A reload compiles the files whose text changed; a file that fails
 * (syntax, schema, unknown operation, template error, name clash) keeps its
 * previously loaded version live and is reported with file, line and reason.
 */
export class FlowRegistry {
  readonly dirs: readonly string[];
  readonly #options: FlowRegistryOptions;
  /** Live flows by file. */
  #flows = new Map<string, CompiledFlow>();
  #problems = new Map<string, FlowProblem[]>();
  readonly #listeners = new Set<(change: FlowListChange) => void>();
  #watcher: FlowWatcher | undefined;

  constructor(options: FlowRegistryOptions) {
    this.dirs = options.dirs;
    this.#options = options;
  }

  /** Every live flow, in load order. */
  flows(): CompiledFlow[] {
    return [...this.#flows.values()];
  }

  tools(): CompiledTool[] {
    return this.flows().flatMap((f) => f.tools);
  }

  resources(): CompiledResource[] {
    return this.flows().flatMap((f) => f.resources);
  }

  templates(): CompiledResourceTemplate[] {
    return this.flows().flatMap((f) => f.templates);
  }

  prompts(): CompiledPrompt[] {
    return this.flows().flatMap((f) => f.prompts);
  }

  /** The problems of the last load, per file (errors kept the old version; warnings dropped an entry). */
  problems(): FlowProblem[] {
    return [...this.#problems.values()].flat();
  }

  /**
   * Reloads on changes in the flows directories (debounced) until close(). A reload runs from a
   * timer, where a throw would end the process: whatever fails is logged and the live flows stay.
   */
  watch(debounceMs?: number): void {
    const reload = (): void => {
      try {
        this.reload();
      } catch (error) {
        this.#options.logger.error('mcp.flows.reload_failed', { error: String(error) });
      }
    };
    this.#watcher ??= watchFlowDirs(this.dirs, reload, this.#options.logger, debounceMs);
  }

  /** Stops watching and forgets the listeners. */
  close(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#listeners.clear();
  }

  /** Calls the listener after each reload that changed at least one list. Returns the unsubscribe function. */
  onChange(listener: (change: FlowListChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Scans the flows directories again: added and changed files are
   * compiled, removed ones dropped. Returns (and announces) the lists whose
   * entries changed.
   */
  reload(): FlowListChange {
    const before = snapshot(this.flows());
    const files = listFlowFiles(this.dirs);
    const next = new Map<string, CompiledFlow>();
    const problems = new Map<string, FlowProblem[]>();
    for (const file of files) {
      const old = this.#flows.get(file);
      const read = readFlowSource(file);
      if ('missing' in read) continue;
      if ('refused' in read) {
        problems.set(file, [{ file, line: 1, reason: read.refused, severity: 'error' }]);
        if (old) next.set(file, old);
        continue;
      }
      const source = read.text;
      if (old !== undefined && old.sourceHash === hashOf(source)) {
        // The live version: keep it (and its warnings; errors were about another text).
        const warnings = (this.#problems.get(file) ?? []).filter((p) => p.severity === 'warning');
        if (warnings.length) problems.set(file, warnings);
        next.set(file, old);
        continue;
      }
      const { flow, problems: found } = this.#compile(file, source);
      // Live flows claim their names first: the processed ones and those still to come.
      const others = [
        ...next.values(),
        ...[...this.#flows].filter(([f]) => f !== file && !next.has(f) && files.includes(f)).map(([, f]) => f),
      ];
      const clash = flow ? findClash(flow, others, this.#options.reserved) : undefined;
      const all = clash ? [...found, clash] : found;
      if (all.length) problems.set(file, all);
      if (flow && !clash) next.set(file, flow);
      else if (old) next.set(file, old);
    }
    this.#flows = next;
    this.#problems = problems;
    for (const problem of this.problems()) {
      this.#options.logger.warn(problem.severity === 'error' ? 'mcp.flows.rejected' : 'mcp.flows.entry_skipped', {
        problem: formatFlowProblem(problem),
      });
    }
    const change = diff(before, snapshot(this.flows()));
    if (Object.keys(change).length > 0) {
      this.#options.logger.info('mcp.flows.reloaded', {
        flows: this.flows().map((f) => f.name),
        changed: Object.keys(change),
      });
      for (const listener of [...this.#listeners]) {
        try {
          listener(change);
        } catch (error) {
          this.#options.logger.warn('mcp.flows.listener_failed', { error: String(error) });
        }
      }
    }
    return change;
  }

  /** Never throws: whatever a file makes the parser or the compiler throw is that file's problem. */
  #compile(file: string, source: string): { flow?: CompiledFlow; problems: FlowProblem[] } {
    try {
      const parsed = parseFlowFile(file, source);
      if (!parsed.flow) return { problems: parsed.problems };
      return compileFlow(parsed.flow, source, this.#options.environment);
    } catch (error) {
      this.#options.logger.error('mcp.flows.load_failed', { file, error: String(error) });
      const name = error instanceof Error ? error.name : typeof error;
      return { problems: [{ file, line: 1, reason: `could not be loaded (${name})`, severity: 'error' }] };
    }
  }
}

function hashOf(source: string): string {
  return createHash('sha256').update(source).digest('hex');
}

type Snapshot = Record<FlowListKind, Map<string, string>>;

/** Every entry of each list, keyed by its MCP identity, with its signature. */
function snapshot(flows: readonly CompiledFlow[]): Snapshot {
  const result: Snapshot = { tools: new Map(), prompts: new Map(), resources: new Map() };
  for (const flow of flows) {
    for (const tool of flow.tools) result.tools.set(tool.name, tool.signature);
    for (const prompt of flow.prompts) result.prompts.set(prompt.name, prompt.signature);
    for (const resource of flow.resources) result.resources.set(`uri:${resource.uri}`, resource.signature);
    for (const template of flow.templates) result.resources.set(`template:${template.name}`, template.signature);
  }
  return result;
}

function diff(before: Snapshot, after: Snapshot): FlowListChange {
  const change: FlowListChange = {};
  for (const kind of ['tools', 'prompts', 'resources'] as const) {
    const a = before[kind];
    const b = after[kind];
    if (a.size !== b.size || [...a].some(([key, signature]) => b.get(key) !== signature)) change[kind] = true;
  }
  return change;
}
