/** A value of config.php as PHP holds it, and the merged configuration. */
export type PhpValue = string | number | boolean | null | PhpValue[] | { [key: string]: PhpValue };
export type PhpConfig = Record<string, PhpValue>;

/**
 * Reads a config file in exactly the layout the host writes: `<?php`, then `$CONFIG = ` and
 * PHP's `var_export` of an array (single-quoted strings, decimal numbers, true/false/NULL,
 * nested `array ( … )`), then `;`. That is what the installer and `occ config:system:set`
 * leave behind, and reading it this way costs well under a millisecond, where loading the
 * general PHP parser costs tens of milliseconds on every one-shot command.
 * Anything else (short arrays, double quotes, comments, constants, expressions, a second
 * statement) returns null, and the caller reads the file with the general parser: this reader
 * never guesses, so it can only answer what the general parser answers, or nothing.
 */
export function readVarExportConfig(source: string): PhpConfig | null {
  const reader = new Reader(source);
  if (!reader.literal('<?php')) return null;
  reader.space();
  if (!reader.literal('$CONFIG')) return null;
  reader.space();
  if (!reader.literal('=')) return null;
  reader.space();
  const value = reader.value();
  reader.space();
  if (value === undefined || !reader.literal(';')) return null;
  reader.space();
  if (!reader.atEnd()) return null;
  if (Array.isArray(value)) return value.length === 0 ? {} : null;
  return value !== null && typeof value === 'object' ? value : null;
}

/** `var_export`'s numbers: an optional minus, digits, an optional fraction and exponent. */
const NUMBER = /-?\d+(?:\.\d+)?(?:E[+-]?\d+)?/y;
const WORD = /[A-Za-z]+/y;
const WORDS: Readonly<Record<string, PhpValue>> = { true: true, false: false, null: null };

class Reader {
  #at = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.#at === this.text.length;
  }

  space(): void {
    while (this.#at < this.text.length && ' \t\r\n'.includes(this.text.charAt(this.#at))) this.#at += 1;
  }

  literal(expected: string): boolean {
    if (!this.text.startsWith(expected, this.#at)) return false;
    this.#at += expected.length;
    return true;
  }

  /** A value, or undefined where the text leaves the layout. */
  value(): PhpValue | undefined {
    const c = this.text.charAt(this.#at);
    if (c === "'") return this.#string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.#number();
    if (this.literal('array')) return this.#array();
    WORD.lastIndex = this.#at;
    const word = WORD.exec(this.text)?.[0];
    if (word === undefined) return undefined;
    const known = WORDS[word.toLowerCase()];
    if (known === undefined) return undefined;
    this.#at += word.length;
    return known;
  }

  /** PHP single quotes: only `\\` and `\'` are escapes; any other backslash stays as written. */
  #string(): string | undefined {
    let out = '';
    for (let i = this.#at + 1; i < this.text.length; i += 1) {
      const c = this.text.charAt(i);
      if (c === "'") {
        this.#at = i + 1;
        return out;
      }
      if (c === '\\' && (this.text.charAt(i + 1) === '\\' || this.text.charAt(i + 1) === "'")) {
        out += this.text.charAt(i + 1);
        i += 1;
      } else {
        out += c;
      }
    }
    return undefined;
  }

  #number(): number | undefined {
    NUMBER.lastIndex = this.#at;
    const raw = NUMBER.exec(this.text)?.[0];
    if (raw === undefined) return undefined;
    const next = this.text.charAt(this.#at + raw.length);
    // 0x…, 0b…, 017 (octal), 1_000: PHP reads those otherwise; the general parser knows how.
    if (/[\w.]/.test(next) || /^-?0\d/.test(raw)) return undefined;
    this.#at += raw.length;
    return Number(raw);
  }

  /** `array (` entries `key => value,` `)`: keys 0…n-1 in order make a list, as the general parser says. */
  #array(): PhpValue | undefined {
    this.space();
    if (!this.literal('(')) return undefined;
    const object: Record<string, PhpValue> = {};
    for (;;) {
      this.space();
      if (this.literal(')')) break;
      const key = this.value();
      if (typeof key !== 'string' && typeof key !== 'number') return undefined;
      this.space();
      if (!this.literal('=>')) return undefined;
      this.space();
      const value = this.value();
      if (value === undefined) return undefined;
      object[String(key)] = value;
      this.space();
      if (!this.literal(',')) {
        this.space();
        if (!this.literal(')')) return undefined;
        break;
      }
    }
    const keys = Object.keys(object);
    if (keys.every((k, i) => k === String(i))) return Object.values(object);
    return object;
  }
}
