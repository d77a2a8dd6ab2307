/**
 * Media files as Flow takes and gives them (flow-wire §3a "Download", §5 "Uploads"): the kind is
 * read from the magic bytes, never from a URL, a file name or a model's claim; uploads are
 * PNG/JPEG/WebP/GIF images of at most 20 MB.
 */
export type ImageExtension = '.png' | '.jpg' | '.webp' | '.gif';
export type MediaExtension = ImageExtension | '.mp4';

/** Flow's upload limit. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

function ascii(bytes: Uint8Array, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i += 1) out += String.fromCharCode(bytes[i] ?? 0);
  return out;
}

/** The image kind of some bytes by their signature, or null. */
export function sniffImage(bytes: Uint8Array): ImageExtension | null {
  const b = bytes;
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return '.png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return '.jpg';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return '.webp';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return '.gif';
  return null;
}

/** An ISO-BMFF video: `ftyp` at bytes 4–8. */
export function isMp4(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && ascii(bytes, 4, 8) === 'ftyp';
}

/** The media kind of some bytes (an image or an mp4), or null. */
export function sniffMedia(bytes: Uint8Array): MediaExtension | null {
  return isMp4(bytes) ? '.mp4' : sniffImage(bytes);
}

/** The MIME type of a media extension (`.png`, `png`, `.jpeg` …); application/octet-stream when unknown. */
export function mimeOf(extension: string): string {
  switch (extension.toLowerCase().replace(/^\.?/, '.')) {
    case '.png':
      return 'image/png';
    case '.jpg':
    case '.jpeg':
      return 'image/jpeg';
    case '.webp':
      return 'image/webp';
    case '.gif':
      return 'image/gif';
    case '.mp4':
      return 'video/mp4';
    default:
      return 'application/octet-stream';
  }
}
