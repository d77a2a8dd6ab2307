/** Media type sniffing by magic bytes (flow-wire §3a "Download", §5 "Uploads"). */
export type MediaExtension = '.png' | '.jpg' | '.webp' | '.gif' | '.mp4';

export function sniffImage(bytes: Uint8Array): '.png' | '.jpg' | '.webp' | '.gif' | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return '.png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return '.jpg';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return '.webp';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return '.gif';
  return null;
}

/** An ISO-BMFF video: `ftyp` at bytes 4–8. */
export function isMp4(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && ascii(bytes, 4, 8) === 'ftyp';
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i += 1) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}

/** The MIME type that goes with an image extension (for upload payloads). */
export function mimeOf(ext: string): string {
  switch (ext.toLowerCase()) {
    case '.png':
      return 'image/png';
    case '.jpg':
    case '.jpeg':
      return 'image/jpeg';
    case '.webp':
      return 'image/webp';
    case '.gif':
      return 'image/gif';
    default:
      return 'application/octet-stream';
  }
}
