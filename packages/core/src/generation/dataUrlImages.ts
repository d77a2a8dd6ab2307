import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BadParameterError } from '@gflow/errors';
import { MAX_UPLOAD_BYTES, sniffImage } from '@gflow/flow-facts';

/**
 * Images a client on another machine sends inline: `data:image/png;base64,…` wherever a path or
 * a media id is accepted (references, frames, an upload). Each is checked before it is decoded
 * (type, size), sniffed after (the bytes must be the image the type says), and written once into
 * the home by its SHA-256 — the same bytes twice are one file — so the rest of the path sees a
 * local file, as for a path the user gave. http(s) URLs are not fetched: nothing leaves the machine
 * for an input.
 */
const DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif));base64,([A-Za-z0-9+/=\s]*)$/;
const EXTENSION: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
};

/** The longest data URL an image field takes: 20 MB of bytes in base64, and its header. */
export const MAX_DATA_URL_CHARS = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64;

const refused = (parameter: string, detail: string): BadParameterError =>
  new BadParameterError(`${parameter}: ${detail}`, { extensions: { parameter } });

export const isDataUrl = (value: string): boolean => value.startsWith('data:');

/** Refuses what is not a local path or a media id and cannot be made one (a URL). */
function refuseUrl(value: string, parameter: string): void {
  if (/^https?:\/\//i.test(value))
    throw refused(
      parameter,
      'gflow does not fetch images from URLs; pass the image inline as a data URL (data:image/png;base64,…), a media id, or a path on the machine gflow runs on.',
    );
}

/** One data URL as a file in `dir`, named by its SHA-256 (written once); the file's path. */
export function storeDataUrl(value: string, parameter: string, dir: string): string {
  if (value.length > MAX_DATA_URL_CHARS) throw refused(parameter, 'the image is larger than 20 MB.');
  const match = DATA_URL.exec(value);
  if (!match)
    throw refused(
      parameter,
      'a data URL must be data:image/(png|jpeg|webp|gif);base64,<bytes> (other types and non-base64 data are refused).',
    );
  const [, mime, payload] = match as unknown as [string, string, string];
  const bytes = Buffer.from(payload.replace(/\s+/g, ''), 'base64');
  if (bytes.length === 0) throw refused(parameter, 'the data URL holds no bytes.');
  if (bytes.length > MAX_UPLOAD_BYTES) throw refused(parameter, 'the image is larger than 20 MB.');
  const sniffed = sniffImage(bytes.subarray(0, 16));
  if (sniffed !== EXTENSION[mime])
    throw refused(parameter, `the data URL says ${mime}, but its bytes are ${sniffed ?? 'not an image gflow reads'}.`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${sha256}${sniffed}`);
  if (!fs.existsSync(file)) {
    // Written beside, then renamed: a reader never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, bytes, { mode: 0o600 });
    fs.renameSync(partial, file);
  }
  return file;
}

/** `value` as gflow reads it next: a data URL becomes its stored file; a URL is refused; anything else as given. */
export function localImageOf(value: string, parameter: string, dir: string): string {
  refuseUrl(value, parameter);
  return isDataUrl(value) ? storeDataUrl(value, parameter, dir) : value;
}

/** Where inline images are kept in a home: its cache, by content. */
export const inlineImagesDir = (cacheDir: string): string => path.join(cacheDir, 'inline-images');

/** The image fields of a generation's input with every data URL stored as a file (the row then names the file, never the bytes). */
export function withLocalImages<T extends object>(input: T, dir: string): T {
  const fields = input as Record<string, unknown>;
  const next: Record<string, unknown> = { ...fields };
  for (const key of ['initial_frame', 'end_frame'] as const) {
    const value = fields[key];
    if (typeof value === 'string') next[key] = localImageOf(value, key, dir);
  }
  const references = fields['reference_images'];
  if (Array.isArray(references))
    next['reference_images'] = references.map((value: unknown, i) =>
      typeof value === 'string' ? localImageOf(value, `reference_images[${i}]`, dir) : value,
    );
  return next as T;
}
