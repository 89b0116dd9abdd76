// A password of letters and digits only: Monit puts collector credentials in a URL without decoding
// them, and its `allow user:pass` lines cannot hold every character either.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'

export function randomPassword(length = 16): string {
  return Array.from(crypto.getRandomValues(new Uint32Array(length)), (n) => ALPHABET[n % ALPHABET.length]).join('')
}
