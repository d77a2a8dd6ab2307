import { WireFormatError } from '@gflow/errors';

/** A saved Flow CHARACTER entity as gflow reports it (seed gflow_character_list). */
export interface FlowCharacter {
  readonly entity_id: string;
  readonly display_name: string;
  readonly project_id: string;
  /** Not exposed by the flow.google.com picker: always [] there. */
  readonly workflow_ids: readonly string[];
  /** Not exposed by the flow.google.com picker: null there. */
  readonly voice: string | null;
  readonly personality: string | null;
  /** The thumbnail's media id when the project grid maps its `/asb/<token>`; else null. */
  readonly thumbnail_media_id: string | null;
}

export interface PickerRow {
  readonly id: string;
  readonly name: string;
  readonly kind: string | null;
  readonly thumb: string | null;
  readonly refType: string | null;
}

/**
 * [U] The asset search reply (`UpteDb`) behind the `@` picker: `[[row…]]`, each row
 * `[id, name, kind, "/asb/<token>", [w, h], refType]`. Characters are the rows with refType
 * `entity` (or kind `CHARACTER`); media rows are `media`. flow-wire documents the rpc and that
 * characters and media share one unranked search, not the row layout: this is the simulator's.
 */
export function parseSearchRows(payload: unknown): PickerRow[] {
  if (!Array.isArray(payload) || !Array.isArray(payload[0])) {
    throw new WireFormatError(
      "Flow's asset search reply (UpteDb) is not a list of rows, so the project's characters cannot be read (flow.google.com, #875).",
    );
  }
  const rows: PickerRow[] = [];
  for (const row of payload[0] as unknown[]) {
    if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'string') {
      throw new WireFormatError(
        "A row of Flow's asset search reply (UpteDb) has no id and name, so the project's characters cannot be read (#875).",
      );
    }
    rows.push({
      id: row[0],
      name: row[1],
      kind: typeof row[2] === 'string' ? row[2] : null,
      thumb: typeof row[3] === 'string' ? row[3] : null,
      refType: typeof row[5] === 'string' ? row[5] : null,
    });
  }
  return rows;
}

export function isCharacterRow(row: PickerRow): boolean {
  return row.refType === 'entity' || row.kind === 'CHARACTER';
}

/** The `/asb/<token>` token of a thumbnail URL, or null. */
export function asbToken(url: string | null): string | null {
  if (url === null) return null;
  const m = /\/asb\/([^/?#]+)/.exec(url);
  return m?.[1] ?? null;
}

export function toCharacters(
  rows: readonly PickerRow[],
  projectId: string,
  mediaByToken: ReadonlyMap<string, string>,
): FlowCharacter[] {
  const seen = new Set<string>();
  const out: FlowCharacter[] = [];
  for (const row of rows) {
    if (!isCharacterRow(row) || seen.has(row.id)) continue;
    seen.add(row.id);
    const token = asbToken(row.thumb);
    out.push({
      entity_id: row.id,
      display_name: row.name,
      project_id: projectId,
      workflow_ids: [],
      voice: null,
      personality: null,
      thumbnail_media_id: token === null ? null : (mediaByToken.get(token) ?? null),
    });
  }
  return out;
}
