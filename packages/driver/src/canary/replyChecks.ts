import { redactAndClip, toGflowError } from '@gflow/errors';
import { parseSearchRows } from '../characters/characterRows.js';
import { SEARCH_RPC } from '../composer/searchReply.js';
import { parseCreateProjectReply } from '../projects/projectReplies.js';
import { payloadOf } from '../projects/rpcReply.js';
import type { TappedResponse } from '../session/wireTap.js';

/** What the canary says of one kind of read-only reply it saw on the way. */
export interface ReplyCheck {
  readonly id: string;
  readonly rpc: string;
  readonly title: string;
  /** `not_seen`: the page sent no such request during the check (no drift, nothing learnt). */
  readonly status: 'ok' | 'drifted' | 'not_seen';
  readonly expected: string;
  readonly found: string;
  readonly seen: number;
}

interface ReplyReader {
  readonly id: string;
  readonly rpc: string;
  readonly title: string;
  readonly expected: string;
  /** The driver's own parser of that reply: throws WireFormatError on a shape it does not read. */
  readonly read: (payload: unknown) => unknown;
}

/**
 * The replies the driver parses that a check meets without spending: the asset search behind the
 * pickers (listCharacters reads its rows) and, when the check creates its scratch project, the
 * create-project reply. The balance is read from the page's header, not a reply (credits.balance).
 */
const READERS: readonly ReplyReader[] = [
  {
    id: 'reply.search',
    rpc: SEARCH_RPC,
    title: 'Asset search reply',
    expected: 'a list of rows, each starting with an id and a name (what gflow reads characters from)',
    read: parseSearchRows,
  },
  {
    id: 'reply.create_project',
    rpc: 'jHPbke',
    title: 'Create-project reply',
    expected: 'a project id and a title, found by shape',
    read: parseCreateProjectReply,
  },
];

function problemOf(response: TappedResponse, reader: ReplyReader): string | null {
  try {
    const item = response.envelope?.items.find((i) => i.rpcId === reader.rpc) ?? null;
    reader.read(payloadOf({ rpcId: reader.rpc, status: response.status, envelope: response.envelope, item }));
    return null;
  } catch (error) {
    return redactAndClip(toGflowError(error).detail, 300);
  }
}

/** Each reader held against every reply of its rpc the page received during the check. */
export function checkReplies(responses: readonly TappedResponse[]): ReplyCheck[] {
  return READERS.map((reader) => {
    const base = { id: reader.id, rpc: reader.rpc, title: reader.title, expected: reader.expected };
    // A body gone before it could be read (the page navigated on the reply: jHPbke opens the new
    // project) says nothing about its shape.
    const seen = responses.filter((r) => r.rpcIds.includes(reader.rpc) && !(r.status === 200 && r.envelope === null));
    if (seen.length === 0)
      return { ...base, status: 'not_seen', found: 'no such reply could be read during the check', seen: 0 };
    const problems = seen.map((r) => problemOf(r, reader)).filter((p): p is string => p !== null);
    return problems.length === 0
      ? { ...base, status: 'ok', found: `${seen.length} read as the driver reads them`, seen: seen.length }
      : {
          ...base,
          status: 'drifted',
          found: `${problems.length} of ${seen.length}: ${problems[0] ?? ''}`,
          seen: seen.length,
        };
  });
}
