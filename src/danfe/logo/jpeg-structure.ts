// The structure of a JPEG file read without decoding it: its segments up to the first scan, the frame
// header (SOFn: coding, precision, size, components) and whether the file ends with EOI.
// the declared size is checked here, before the decoder allocates anything.
import { LogoRefusal } from './logo-refusal.js';
import { checkLogoSize } from './png-structure.js';

export interface JpegStructure {
  width: number;
  height: number;
  /** The SOF marker's low byte: 0xc0 baseline, 0xc1 extended sequential, 0xc2 progressive. */
  frame: number;
  components: number;
  /** Markers (low byte) of the segments before the first scan, in file order. */
  segments: number[];
  /** The file's last two bytes are EOI. */
  endsWithEoi: boolean;
}

export function isJpeg(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

// SOF markers other than the three the decoder reads: lossless, hierarchical, arithmetic coding.
const UNSUPPORTED_FRAMES = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

export function readJpegStructure(bytes: Buffer): JpegStructure {
  if (!isJpeg(bytes)) throw new LogoRefusal('is not a JPEG image');
  const incomplete = () => new LogoRefusal('is not a complete JPEG image (the file ends before its frame header); upload the whole file');
  const segments: number[] = [];
  let frame: Omit<JpegStructure, 'segments' | 'endsWithEoi'> | undefined;
  let at = 2;
  for (;;) {
    // Markers may be padded with fill bytes (0xff); each step moves forward, so this ends.
    while (at < bytes.length && bytes[at] === 0xff && bytes[at + 1] === 0xff) at++;
    if (at + 4 > bytes.length) throw incomplete();
    if (bytes[at] !== 0xff) throw new LogoRefusal('is damaged: its segments do not follow one another; export it again');
    const marker = bytes[at + 1]!;
    if (marker === 0xd9) throw new LogoRefusal('has no image: the file ends (EOI) before any scan; export it again');
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > bytes.length) throw incomplete();
    segments.push(marker);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (frame) throw new LogoRefusal('is damaged: it has two frame headers; export it again');
      if (length < 8) throw incomplete();
      frame = { frame: marker, height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7), components: bytes[at + 9]! };
      if (UNSUPPORTED_FRAMES.has(marker)) {
        throw new LogoRefusal('is a lossless, hierarchical or arithmetic-coded JPEG, which cannot be printed; save it as a baseline JPEG or a PNG');
      }
      if (bytes[at + 4] !== 8) throw new LogoRefusal(`has ${bytes[at + 4]} bits per sample; save it as an 8-bit JPEG or a PNG`);
      if (![1, 3, 4].includes(frame.components)) {
        throw new LogoRefusal(`has ${frame.components} colour components; save it as an RGB or greyscale JPEG or a PNG`);
      }
      checkLogoSize(frame.width, frame.height);
    }
    if (marker === 0xda) break;
    at += 2 + length;
  }
  if (!frame) throw new LogoRefusal('is damaged: its image data comes before its frame header; export it again');
  const n = bytes.length;
  return { ...frame, segments, endsWithEoi: bytes[n - 2] === 0xff && bytes[n - 1] === 0xd9 };
}
