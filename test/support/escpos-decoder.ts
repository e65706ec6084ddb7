// Reads an ESC/POS stream back the way a printer would: walks every command the DANFE may use and
// fails on any other byte below 0x20, so a stray control character (or a text byte taken for a
// command) shows. Text is decoded with the code page the stream selected, from a table that iconv
// (glibc's CP860, not our encoder) gives.
import { execFileSync } from 'node:child_process';

export interface PrintedLine {
  text: string;
  bold: boolean;
  align: 'left' | 'center' | 'right';
  doubleHeight: boolean;
}

export interface PrintedQr {
  model: number | null;
  moduleDots: number | null;
  /** fn 69 n: 48 L, 49 M, 50 Q, 51 H. */
  errorCorrection: number | null;
  /** What fn 80 stored and fn 81 printed. */
  payload: string;
}

export interface PrintedCopy {
  lines: PrintedLine[];
  qr: PrintedQr[];
}

export interface DecodedStream {
  /** Each part of the paper up to a cut (GS V); the last one is what follows the last cut (empty when it ends with one). */
  copies: PrintedCopy[];
  commands: string[];
  codeTable: number | null;
  endsWithCut: boolean;
}

let cp860: string[] | undefined;
/** Byte -> character of CP860 as iconv maps it (0x00-0x7f ASCII). */
function cp860Table(): string[] {
  if (!cp860) {
    const high = execFileSync('iconv', ['-f', 'CP860', '-t', 'UTF-8'], { input: Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i)) }).toString('utf8');
    cp860 = [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), ...high];
    if (cp860.length !== 256) throw new Error(`iconv CP860 gave ${cp860.length} characters`);
  }
  return cp860;
}

export function decodeEscpos(stream: Buffer): DecodedStream {
  const copies: PrintedCopy[] = [{ lines: [], qr: [] }];
  const commands: string[] = [];
  let state = { bold: false, align: 'left' as PrintedLine['align'], doubleHeight: false };
  let codeTable: number | null = null;
  let text: number[] = [];
  let stored: Buffer | null = null;
  let qr: Omit<PrintedQr, 'payload'> = { model: null, moduleDots: null, errorCorrection: null };
  let i = 0;
  const need = (n: number) => {
    if (i + n > stream.length) throw new Error(`stream ends inside a command at ${i}`);
  };
  const decode = (bytes: number[]) => {
    if (codeTable !== 3) throw new Error(`text printed with code table ${codeTable}, expected PC860 (3)`);
    const table = cp860Table();
    return bytes.map((b) => table[b]).join('');
  };
  while (i < stream.length) {
    const b = stream[i]!;
    if (b === 0x0a) {
      copies.at(-1)!.lines.push({ text: decode(text), ...state });
      text = [];
      i += 1;
    } else if (b === 0x1b) {
      need(2);
      const c = stream[i + 1]!;
      if (c === 0x40) {
        commands.push('ESC @');
        state = { bold: false, align: 'left', doubleHeight: false };
        codeTable = 0;
        i += 2;
        continue;
      }
      need(3);
      const n = stream[i + 2]!;
      if (c === 0x74) codeTable = n;
      else if (c === 0x61) state.align = (['left', 'center', 'right'] as const)[n % 48] ?? 'left';
      else if (c === 0x45) state.bold = (n & 1) === 1;
      else throw new Error(`unknown ESC ${c.toString(16)} at ${i}`);
      commands.push(`ESC ${String.fromCharCode(c)} ${n}`);
      i += 3;
    } else if (b === 0x1d) {
      need(2);
      const c = stream[i + 1]!;
      if (c === 0x21) {
        need(3);
        state.doubleHeight = (stream[i + 2]! & 0x0f) > 0;
        commands.push(`GS ! ${stream[i + 2]}`);
        i += 3;
      } else if (c === 0x28 && stream[i + 2] === 0x6b) {
        need(5);
        const len = stream[i + 3]! + stream[i + 4]! * 256;
        need(5 + len);
        const [cn, fn] = [stream[i + 5]!, stream[i + 6]!];
        const params = stream.subarray(i + 7, i + 5 + len);
        if (cn !== 49) throw new Error(`GS ( k cn ${cn} is not a QR code`);
        commands.push(`GS ( k ${fn}`);
        if (fn === 65) qr.model = params[0]! - 48;
        else if (fn === 67) qr.moduleDots = params[0]!;
        else if (fn === 69) qr.errorCorrection = params[0]!;
        else if (fn === 80) stored = Buffer.from(params.subarray(1));
        else if (fn === 81) {
          if (!stored) throw new Error('QR printed before anything was stored');
          copies.at(-1)!.qr.push({ ...qr, payload: stored.toString('utf8') });
        } else throw new Error(`GS ( k fn ${fn} not expected`);
        i += 5 + len;
      } else if (c === 0x56) {
        need(3);
        const m = stream[i + 2]!;
        const size = m === 65 || m === 66 ? 4 : 3;
        need(size);
        commands.push(`GS V ${m}`);
        copies.push({ lines: [], qr: [] });
        stored = null;
        qr = { model: null, moduleDots: null, errorCorrection: null };
        i += size;
      } else throw new Error(`unknown GS ${c.toString(16)} at ${i}`);
    } else if (b < 0x20 || b === 0x7f) {
      throw new Error(`control byte 0x${b.toString(16)} at ${i} outside any command`);
    } else {
      text.push(b);
      i += 1;
    }
  }
  if (text.length) copies.at(-1)!.lines.push({ text: decode(text), ...state });
  const last = copies.at(-1)!;
  const endsWithCut = last.lines.length === 0 && last.qr.length === 0 && commands.at(-1)?.startsWith('GS V') === true;
  return { copies: endsWithCut ? copies.slice(0, -1) : copies, commands, codeTable, endsWithCut };
}

/** The lines' text, blanks squeezed, to look for phrases a line break may have split. */
export function joinedText(copy: PrintedCopy): string {
  return copy.lines.map((l) => l.text.trim()).join(' ').replace(/\s+/g, ' ');
}
