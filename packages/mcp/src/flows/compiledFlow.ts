import type { Operation } from '@gflow/core';
import type { JsonSchema } from './jsonSchemaSubset.js';
import type { CompiledTemplate } from './templates.js';
import type { TemplateValue } from './templateValue.js';

/** What every compiled entry carries: its flow, its line, and a signature of its whole definition. */
interface EntryBase {
  readonly flow: string;
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** Equal signatures mean an identical entry (definition and loaded files): no re-registration. */
  readonly signature: string;
}

export interface CompiledStep {
  readonly name: string;
  readonly operation: Operation;
  readonly arguments: TemplateValue;
}

export interface CompiledTool extends EntryBase {
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly steps: readonly CompiledStep[];
  readonly result?: TemplateValue | undefined;
}

export interface CompiledResource extends EntryBase {
  readonly uri: string;
  readonly mimeType: string;
  readonly text: string;
}

export interface CompiledResourceTemplate extends EntryBase {
  readonly uriTemplate: string;
  readonly mimeType: string;
  readonly content: CompiledTemplate;
  readonly parameterDescriptions: Readonly<Record<string, string>>;
  /** Completion candidates per placeholder. */
  readonly completions: Readonly<Record<string, readonly string[]>>;
}

export interface CompiledPromptArgument {
  readonly name: string;
  readonly description?: string | undefined;
  readonly required: boolean;
  readonly default?: string | undefined;
  readonly completion?: readonly string[] | undefined;
}

export interface CompiledPrompt extends EntryBase {
  readonly arguments: readonly CompiledPromptArgument[];
  readonly messages: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly template: CompiledTemplate }>;
}

/** One flow file, compiled: every template parsed and checked, every referenced file read. */
export interface CompiledFlow {
  readonly file: string;
  readonly name: string;
  /** Hash of the file's text: an unchanged file is not compiled again. */
  readonly sourceHash: string;
  readonly tools: readonly CompiledTool[];
  readonly resources: readonly CompiledResource[];
  readonly templates: readonly CompiledResourceTemplate[];
  readonly prompts: readonly CompiledPrompt[];
}

/** The three MCP lists a flow entry can appear in (templates are part of resources). */
export type FlowListKind = 'tools' | 'prompts' | 'resources';
