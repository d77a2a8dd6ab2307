import fs from 'node:fs';

/** The first `length` bytes of a file (fewer when it is shorter): enough to sniff its type by magic bytes. */
export function readFileHead(file: string, length = 16): Buffer {
  const head = Buffer.alloc(length);
  const fd = fs.openSync(file, 'r');
  try {
    const read = fs.readSync(fd, head, 0, length, 0);
    return head.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}
