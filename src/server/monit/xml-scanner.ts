// A small, tolerant pull scanner for the XML that Monit agents POST (agent protocol §4.9).
// It is driven by a caller that knows the document's shape: the caller says whether the element it
// just opened is a container (walk it with `nextChild`) or a leaf (`readText`), which is what lets
// a leaf's text contain unescaped `<`, `&` or `"` — it simply runs to the matching `</tag>`.

export class MessageParseError extends Error {
  override name = 'MessageParseError'
}

const truncated = (tag: string): MessageParseError => new MessageParseError(`truncated document: <${tag}> not closed`)

const declarationsRejected = (): MessageParseError => new MessageParseError('DOCTYPE/entity declarations are not accepted')

const CDATA_OPEN = '<![CDATA['
const CDATA_CLOSE = ']]>'

const LT = 0x3c
const GT = 0x3e
const SLASH = 0x2f
const BANG = 0x21
const QUESTION = 0x3f
const EQUALS = 0x3d
const AMPERSAND = 0x26
const MINUS = 0x2d
const DOT = 0x2e
const DIGIT_0 = 0x30
const DIGIT_9 = 0x39
const DOUBLE_QUOTE = 0x22
const SINGLE_QUOTE = 0x27

/** Digits a double holds exactly, so the fast number path gives what Number() gives. */
const MAX_FAST_DIGITS = 15

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** A character that ends a tag or attribute name. NaN (past the end) also ends it. Letters, the
 * usual name characters, are above `>`, which makes them quick to rule out. */
function endsName(c: number): boolean {
  if (c > GT) return false
  return isWhitespace(c) || c === GT || c === SLASH || c === EQUALS || Number.isNaN(c)
}

const isNameStart = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c > 0x7f

const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
const ENTITY_REFERENCE = /&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6}));/g

/** Code points XML 1.0 allows in a document (its `Char` production). */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  )
}

/** Decodes the five predefined entities and character references; anything else, such as a bare
 * `&` from an unescaped name, stays literal. Nothing else is ever expanded. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(ENTITY_REFERENCE, (match: string, named?: string, decimal?: string, hex?: string) => {
    if (named !== undefined) return PREDEFINED_ENTITIES[named]
    const cp = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16)
    return isXmlChar(cp) ? String.fromCodePoint(cp) : match
  })
}

/** The number in a text; undefined when it is empty or not a finite number. */
export function toNumber(text: string): number | undefined {
  const n = Number(text)
  if (!Number.isFinite(n)) return undefined
  // Number() reads an empty or blank text as 0, but that is a missing value.
  return n === 0 && text.trim() === '' ? undefined : n
}

/** Monit writes `]]>` inside CDATA as `]]&gt;` (§4.9); give the text back its original form. */
const restoreCdataTerminators = (text: string): string => (text.includes(']]&gt;') ? text.replaceAll(']]&gt;', ']]>') : text)

export class XmlScanner {
  private pos = 0
  /** The element opened last ended with `/>`: it has no children and no text. */
  private selfClosed = false
  /** Attributes of the element opened last; most elements have none, so the array is made on demand. */
  private attributes: Array<[name: string, value: string]> | undefined

  constructor(private readonly src: string) {}

  /**
   * Moves past the XML declaration, comments and whitespace to the root element, opens it and
   * returns its name, or undefined when the document holds no element at all.
   */
  openRoot(): string | undefined {
    for (;;) {
      const lt = this.skipWhitespace(this.pos)
      if (lt >= this.src.length || this.src.charCodeAt(lt) !== LT) return undefined
      const next = this.src.charCodeAt(lt + 1)
      if (next === QUESTION) this.pos = this.endOf('?>', lt + 2, '?xml')
      else if (next === BANG) this.skipDeclaration(lt, '?xml')
      else if (isNameStart(next)) return this.openTag(lt)
      else return undefined
    }
  }

  /** Value of an attribute of the element opened last. */
  attribute(name: string): string | undefined {
    return this.attributes?.find(([key]) => key === name)?.[1]
  }

  /**
   * Opens the next child element of the container `parent` and returns its name, or consumes
   * `</parent>` and returns null. Text between children is ignored, as are stray close tags.
   */
  nextChild(parent: string): string | null {
    if (this.selfClosed) {
      this.selfClosed = false
      return null
    }
    for (;;) {
      // Monit writes no whitespace between elements: the next `<` is usually right here.
      const lt = this.src.charCodeAt(this.pos) === LT ? this.pos : this.src.indexOf('<', this.pos)
      if (lt < 0) throw truncated(parent)
      const next = this.src.charCodeAt(lt + 1)
      if (next === SLASH) {
        const end = this.closeTagEnd(lt, parent)
        this.pos = end < 0 ? lt + 2 : end
        if (end >= 0) return null
      } else if (next === BANG) {
        this.skipDeclaration(lt, parent)
      } else if (next === QUESTION) {
        this.pos = this.endOf('?>', lt + 2, parent)
      } else if (isNameStart(next)) {
        return this.openTag(lt)
      } else {
        this.pos = lt + 1
      }
    }
  }

  /**
   * Reads the text of the leaf element `tag` just opened and consumes its close tag. The text runs
   * to the first `</tag>` outside CDATA, so unescaped markup characters in it are kept as they are.
   */
  readText(tag: string): string {
    if (this.selfClosed) {
      this.selfClosed = false
      return ''
    }
    // Fast path for the usual short text directly followed by its close tag.
    let lt = this.pos
    let hasAmpersand = false
    for (let c = this.src.charCodeAt(lt); c !== LT; c = this.src.charCodeAt(++lt)) {
      if (c === AMPERSAND) hasAmpersand = true
      else if (Number.isNaN(c)) throw truncated(tag)
    }
    const closeEnd = this.closeTagEnd(lt, tag)
    if (closeEnd < 0) return this.readMixedText(tag)
    const text = this.src.slice(this.pos, lt)
    this.pos = closeEnd
    return hasAmpersand ? decodeEntities(text) : text
  }

  /** Text with CDATA sections or stray `<` in it. */
  private readMixedText(tag: string): string {
    let text = ''
    let textStart = this.pos
    let searchFrom = this.pos
    for (;;) {
      const lt = this.src.indexOf('<', searchFrom)
      if (lt < 0) throw truncated(tag)
      const closeEnd = this.closeTagEnd(lt, tag)
      if (closeEnd >= 0) {
        this.pos = closeEnd
        return text + decodeEntities(this.src.slice(textStart, lt))
      }
      if (this.src.startsWith(CDATA_OPEN, lt)) {
        const end = this.src.indexOf(CDATA_CLOSE, lt + CDATA_OPEN.length)
        if (end < 0) throw truncated(tag)
        text += decodeEntities(this.src.slice(textStart, lt)) + restoreCdataTerminators(this.src.slice(lt + CDATA_OPEN.length, end))
        textStart = searchFrom = end + CDATA_CLOSE.length
      } else {
        searchFrom = lt + 1
      }
    }
  }

  /**
   * Reads the leaf `tag` just opened as a number (undefined when empty or not numeric). Plain
   * decimals like `-1.000000` are converted in place; anything else goes through `toNumber`.
   */
  readNumber(tag: string): number | undefined {
    if (this.selfClosed) return toNumber(this.readText(tag))
    let i = this.pos
    const negative = this.src.charCodeAt(i) === MINUS
    if (negative) i++
    let mantissa = 0
    let divisor = 1
    let digits = 0
    let c = this.src.charCodeAt(i)
    for (; c >= DIGIT_0 && c <= DIGIT_9; c = this.src.charCodeAt(++i), digits++) mantissa = mantissa * 10 + c - DIGIT_0
    if (c === DOT) {
      for (c = this.src.charCodeAt(++i); c >= DIGIT_0 && c <= DIGIT_9; c = this.src.charCodeAt(++i), digits++) {
        mantissa = mantissa * 10 + c - DIGIT_0
        divisor *= 10
      }
    }
    const closeEnd = c === LT && digits > 0 && digits <= MAX_FAST_DIGITS ? this.closeTagEnd(i, tag) : -1
    if (closeEnd < 0) return toNumber(this.readText(tag))
    this.pos = closeEnd
    // Both operands are exact, so the division rounds exactly as Number() would.
    const value = mantissa / divisor
    return negative ? -value : value
  }

  /** Reads the container `tag` just opened as a set of leaves: child name → text (the last one wins). */
  readLeafTexts(tag: string): Map<string, string> {
    const texts = new Map<string, string>()
    for (let child = this.nextChild(tag); child !== null; child = this.nextChild(tag)) {
      texts.set(child, this.readText(child))
    }
    return texts
  }

  /** Skips the element `tag` just opened, with everything in it, up to its matching close tag. */
  skip(tag: string): void {
    if (this.selfClosed) {
      this.selfClosed = false
      return
    }
    let depth = 1
    let searchFrom = this.pos
    for (;;) {
      const lt = this.src.indexOf('<', searchFrom)
      if (lt < 0) throw truncated(tag)
      const closeEnd = this.closeTagEnd(lt, tag)
      if (closeEnd >= 0) {
        searchFrom = closeEnd
        if (--depth === 0) break
      } else if (this.src.startsWith(CDATA_OPEN, lt)) {
        searchFrom = this.endOf(CDATA_CLOSE, lt + CDATA_OPEN.length, tag)
      } else {
        if (this.isOpenTag(lt, tag)) depth++
        searchFrom = lt + 1
      }
    }
    this.pos = searchFrom
  }

  /** `src.startsWith(name, at)`, without the builtin call: this runs once per element. */
  private matchesAt(at: number, name: string): boolean {
    for (let k = 0; k < name.length; k++) {
      if (this.src.charCodeAt(at + k) !== name.charCodeAt(k)) return false
    }
    return true
  }

  /** The position after `</tag>` if that close tag starts at `lt`, else -1. */
  private closeTagEnd(lt: number, tag: string): number {
    if (this.src.charCodeAt(lt + 1) !== SLASH || !this.matchesAt(lt + 2, tag)) return -1
    const after = lt + 2 + tag.length
    const c = this.src.charCodeAt(after)
    if (c === GT) return after + 1
    return endsName(c) ? this.endOf('>', after, tag) : -1
  }

  /** `<tag …>` that is not self-closing (a nested element with the same name). The scan stops at
   * the next `<`, so hostile input cannot make skipping quadratic. */
  private isOpenTag(lt: number, tag: string): boolean {
    if (!this.src.startsWith(tag, lt + 1) || !endsName(this.src.charCodeAt(lt + 1 + tag.length))) return false
    for (let i = lt + 1 + tag.length; i < this.src.length; i++) {
      const c = this.src.charCodeAt(i)
      if (c === GT) return this.src.charCodeAt(i - 1) !== SLASH
      if (c === LT) return false
    }
    return false
  }

  /** Comments and CDATA between elements are skipped; DOCTYPE, ENTITY and the like are refused. */
  private skipDeclaration(lt: number, parent: string): void {
    if (this.src.startsWith('<!--', lt)) this.pos = this.endOf('-->', lt + 4, parent)
    else if (this.src.startsWith(CDATA_OPEN, lt)) this.pos = this.endOf(CDATA_CLOSE, lt + CDATA_OPEN.length, parent)
    else throw declarationsRejected()
  }

  /** Position just after the next `marker` at or after `from`; the document is cut short without one. */
  private endOf(marker: string, from: number, openElement: string): number {
    const at = this.src.indexOf(marker, from)
    if (at < 0) throw truncated(openElement)
    return at + marker.length
  }

  private skipWhitespace(from: number): number {
    let i = from
    while (i < this.src.length && isWhitespace(this.src.charCodeAt(i))) i++
    return i
  }

  private readName(from: number): string {
    let end = from
    while (!endsName(this.src.charCodeAt(end))) end++
    return this.src.slice(from, end)
  }

  /** Opens the element whose `<` is at `lt`: reads its name and attributes, up to `>` or `/>`. */
  private openTag(lt: number): string {
    const name = this.readName(lt + 1)
    let i = lt + 1 + name.length
    this.attributes = undefined
    for (;;) {
      i = this.skipWhitespace(i)
      const c = this.src.charCodeAt(i)
      if (c === GT) {
        this.selfClosed = false
        break
      }
      if (c === SLASH && this.src.charCodeAt(i + 1) === GT) {
        this.selfClosed = true
        i++
        break
      }
      if (Number.isNaN(c)) throw truncated(name)
      i = this.readAttribute(i, name)
    }
    this.pos = i + 1
    return name
  }

  /** Reads one `name="value"` starting at `i` and returns the position after it. Junk that is not
   * an attribute is stepped over one character at a time. */
  private readAttribute(i: number, tag: string): number {
    const key = this.readName(i)
    let j = this.skipWhitespace(i + key.length)
    if (key === '' || this.src.charCodeAt(j) !== EQUALS) return Math.max(j, i + 1)
    j = this.skipWhitespace(j + 1)
    const quote = this.src.charCodeAt(j)
    if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return j
    const close = this.findAttributeEnd(j + 1, String.fromCharCode(quote), tag)
    this.attributes ??= []
    this.attributes.push([key, decodeEntities(this.src.slice(j + 1, close))])
    return close + 1
  }

  /**
   * Finds the quote that ends an attribute value. Monit 5.33 does not escape names, so a quote only
   * counts when what follows it can continue the tag: `>`, `/>`, or whitespace and `name=`.
   */
  private findAttributeEnd(from: number, quote: string, tag: string): number {
    let candidate = this.src.indexOf(quote, from)
    while (candidate >= 0) {
      if (this.canFollowAttribute(candidate + 1)) return candidate
      candidate = this.src.indexOf(quote, candidate + 1)
    }
    throw truncated(tag)
  }

  private canFollowAttribute(i: number): boolean {
    const j = this.skipWhitespace(i)
    const c = this.src.charCodeAt(j)
    if (c === GT || (c === SLASH && this.src.charCodeAt(j + 1) === GT)) return true
    if (j === i || !isNameStart(c)) return false
    const key = this.readName(j)
    return this.src.charCodeAt(this.skipWhitespace(j + key.length)) === EQUALS
  }
}
