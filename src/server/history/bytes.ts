// Varints over plain JS numbers (safe integers up to 2^53, so no BigInt on the hot path) and a growable
// byte buffer. Zigzag maps small negative numbers to small unsigned ones (0, -1, 1, -2 → 0, 1, 2, 3).

/** Integers handled exactly by every encoding step: with room for zigzag (×2) and tags (×8). */
export const MAX_EXACT = 2 ** 49

export function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1
}

export function unzigzag(z: number): number {
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2
}

export class ByteWriter {
  private buf: Buffer
  private pos = 0

  constructor(capacity = 1024) {
    this.buf = Buffer.allocUnsafe(capacity)
  }

  reset(): void {
    this.pos = 0
  }

  get length(): number {
    return this.pos
  }

  uvarint(n: number): void {
    this.ensure(8)
    let v = n
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80
      v = Math.floor(v / 0x80)
    }
    this.buf[this.pos++] = v
  }

  svarint(n: number): void {
    this.uvarint(zigzag(n))
  }

  float64(n: number): void {
    this.ensure(8)
    this.buf.writeDoubleLE(n, this.pos)
    this.pos += 8
  }

  /** A copy of the bytes written so far: the buffer itself is reused. */
  toBuffer(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos))
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + extra))
    this.buf.copy(grown, 0, 0, this.pos)
    this.buf = grown
  }
}

export class ByteReader {
  private pos = 0

  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length
  }

  uvarint(): number {
    // One byte is the common case (small deltas): no loop, no float maths.
    const first = this.buf[this.pos]
    if (first < 0x80) {
      this.pos++
      return first
    }
    let result = 0
    let factor = 1
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated history block')
      const byte = this.buf[this.pos++]
      result += (byte & 0x7f) * factor
      if (byte < 0x80) return result
      factor *= 0x80
    }
  }

  svarint(): number {
    return unzigzag(this.uvarint())
  }

  float64(): number {
    if (this.pos + 8 > this.buf.length) throw new Error('truncated history block')
    const value = Buffer.from(this.buf.buffer, this.buf.byteOffset + this.pos, 8).readDoubleLE(0)
    this.pos += 8
    return value
  }
}
