// OSC 1.0 wire format (https://opensoundcontrol.stanford.edu/spec-1_0.html):
// encode messages with i, f, s (and T, F, N) arguments; decode messages and
// bundles (nested) with i, f, s, d, h, T, F, N, I, b, c, r, m, t and arrays.
// A packet that cannot be decoded yields what could be read; it never throws
// out of decodePacket, so one bad frame cannot break the page.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function padded(length) {
  return (length + 3) & ~3;
}

function stringBytes(text) {
  const bytes = encoder.encode(text);
  const out = new Uint8Array(padded(bytes.length + 1));
  out.set(bytes);
  return out;
}

/**
 * Encodes one message. `types` is the type tag string without the comma
 * ("f", "si", ""), `args` the values in order (T, F and N take none).
 * Returns an ArrayBuffer.
 */
export function encodeMessage(address, types = '', args = []) {
  const parts = [stringBytes(address), stringBytes(',' + types)];
  let a = 0;
  for (const tag of types) {
    if (tag === 'T' || tag === 'F' || tag === 'N') continue;
    const value = args[a++];
    if (tag === 's') {
      parts.push(stringBytes(String(value)));
    } else if (tag === 'i' || tag === 'f') {
      const word = new DataView(new ArrayBuffer(4));
      if (tag === 'i') word.setInt32(0, value | 0);
      else word.setFloat32(0, Number(value));
      parts.push(new Uint8Array(word.buffer));
    } else {
      throw new Error(`osc: cannot encode type tag ${tag}`);
    }
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out.buffer;
}

/** A string at `at` and where what follows it starts; ASCII (addresses, type tags) without a TextDecoder. */
function readString(view, at) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let end = at;
  let ascii = true;
  while (end < bytes.length && bytes[end] !== 0) {
    if (bytes[end] > 0x7f) ascii = false;
    end++;
  }
  if (end >= bytes.length) throw new Error('osc: unterminated string');
  const text = ascii && end - at <= 256
    ? String.fromCharCode.apply(null, bytes.subarray(at, end))
    : decoder.decode(bytes.subarray(at, end));
  return [text, padded(end + 1)];
}

function decodeMessage(view) {
  const [address, afterAddress] = readString(view, 0);
  if (!address.startsWith('/')) throw new Error('osc: not a message');
  if (afterAddress >= view.byteLength) return { address, types: '', args: [] };
  let [tags, at] = readString(view, afterAddress);
  if (!tags.startsWith(',')) return { address, types: '', args: [] };
  tags = tags.slice(1);
  const args = [];
  let types = '';
  try {
    for (const tag of tags) {
      switch (tag) {
        case 'i': args.push(view.getInt32(at)); at += 4; break;
        case 'f': args.push(view.getFloat32(at)); at += 4; break;
        case 'd': args.push(view.getFloat64(at)); at += 8; break;
        case 'h': args.push(Number(view.getBigInt64(at))); at += 8; break;
        case 't': args.push(view.getBigUint64(at)); at += 8; break;
        case 'c': args.push(String.fromCodePoint(view.getUint32(at))); at += 4; break;
        case 'r': case 'm': args.push(view.getUint32(at)); at += 4; break;
        case 's': case 'S': { const [text, next] = readString(view, at); args.push(text); at = next; break; }
        case 'b': {
          const size = view.getInt32(at);
          args.push(new Uint8Array(view.buffer.slice(view.byteOffset + at + 4, view.byteOffset + at + 4 + size)));
          at = padded(at + 4 + size);
          break;
        }
        case 'T': args.push(true); break;
        case 'F': args.push(false); break;
        case 'N': args.push(null); break;
        case 'I': args.push(Infinity); break;
        case '[': case ']': continue; // arrays: their elements are read flat
        default:
          // An unknown tag: its size is unknown, so the rest cannot be read.
          return { address, types, args, partial: true };
      }
      types += tag;
    }
  } catch {
    return { address, types, args, partial: true };
  }
  return { address, types, args };
}

function decodeInto(view, out, depth) {
  if (view.byteLength < 4) return;
  if (view.getUint8(0) === 0x23) { // '#bundle'
    if (depth > 8) return;
    const [tag] = readString(view, 0);
    if (tag !== '#bundle') return;
    let at = 16; // "#bundle\0" + 8-byte time tag
    while (at + 4 <= view.byteLength) {
      const size = view.getInt32(at);
      at += 4;
      if (size <= 0 || at + size > view.byteLength) return;
      decodeInto(new DataView(view.buffer, view.byteOffset + at, size), out, depth + 1);
      at += size;
    }
  } else {
    out.push(decodeMessage(view));
  }
}

/**
 * Decodes a packet (ArrayBuffer) into a flat list of messages
 * `{address, types, args}`, bundles opened in order. Never throws.
 */
export function decodePacket(buffer) {
  const out = [];
  try {
    decodeInto(new DataView(buffer), out, 0);
  } catch (error) {
    console.warn('osc: undecodable packet', error);
  }
  return out;
}
