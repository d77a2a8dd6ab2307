import { z } from 'zod';

/**
 * The YAML format of a flow file, entry by entry. Objects are strict so a
 * misspelt key is reported (with its line) instead of silently ignored.
 * Templates are plain strings here; they are parsed and checked later.
 */

/** MCP names: letters, digits, `_`, `-` and `.`, 1–64 characters. */
export const ENTRY_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** Flow names become URI segments (gflow://<flow>/<name>). */
export const FLOW_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Step names are template path segments ({{steps.<name>.…}}). */
const STEP_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const name = z.string().regex(ENTRY_NAME, 'must be 1–64 letters, digits, "_", "-" or "."');
const text = (max: number) => z.string().max(max);

export const completionSource = z.union([
  z.strictObject({ values: z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String)).max(10_000) }),
  z.strictObject({ resource: z.string().min(1) }),
]);
export type CompletionSource = z.output<typeof completionSource>;

const step = z.strictObject({
  name: z.string().regex(STEP_NAME, 'must be an identifier (letters, digits, "_")').optional(),
  operation: z
    .string()
    .min(1)
    .describe('A core operation name (generateImage) or its MCP tool name (gflow_generate_image).'),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

export const toolEntry = z.strictObject({
  name,
  title: text(200).optional(),
  description: text(4000),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  steps: z.array(step).min(1).max(20),
  result: z.unknown().optional(),
});
export type ToolEntry = z.output<typeof toolEntry>;

const parameter = z.strictObject({
  name: z.string().min(1),
  description: text(1000).optional(),
  completion: completionSource.optional(),
});

export const resourceEntry = z
  .strictObject({
    name,
    title: text(200).optional(),
    description: text(4000).optional(),
    mime_type: z.string().min(1).max(200).optional(),
    uri: z.string().min(1).max(2048).optional(),
    uri_template: z.string().min(1).max(2048).optional(),
    content: z.union([z.string(), z.strictObject({ resource: z.string().min(1) })]),
    parameters: z.array(parameter).optional(),
  })
  .refine((r) => !(r.uri && r.uri_template), {
    message: 'give either uri or uri_template, not both',
    path: ['uri_template'],
  })
  .refine((r) => !r.parameters || r.uri_template, { message: 'parameters need a uri_template', path: ['parameters'] });
export type ResourceEntry = z.output<typeof resourceEntry>;

const promptArgument = z.strictObject({
  name: z.string().regex(STEP_NAME, 'must be an identifier (letters, digits, "_")'),
  description: text(1000).optional(),
  required: z.boolean().optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).transform(String).optional(),
  completion: completionSource.optional(),
});

const message = z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string() });

export const promptEntry = z
  .strictObject({
    name,
    title: text(200).optional(),
    description: text(4000).optional(),
    arguments: z.array(promptArgument).optional(),
    template: z.string().optional(),
    messages: z.array(message).min(1).optional(),
  })
  .refine((p) => (p.template === undefined) !== (p.messages === undefined), {
    message: 'give exactly one of template or messages',
    path: ['template'],
  });
export type PromptEntry = z.output<typeof promptEntry>;

export const ENTRY_KINDS = ['mcp_tool', 'mcp_resource', 'mcp_prompt'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export const ENTRY_SCHEMAS = { mcp_tool: toolEntry, mcp_resource: resourceEntry, mcp_prompt: promptEntry } as const;

/** The file's top level: a list of entries, or a mapping with a name and the entries. */
export const flowHeader = z.strictObject({
  name: z.string().regex(FLOW_NAME, 'must be 1–64 letters, digits, "_" or "-"').optional(),
  description: text(4000).optional(),
  entries: z.array(z.unknown()),
});
