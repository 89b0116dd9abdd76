// The SHA-256 fingerprint of a PEM certificate, as the server logs it and `openssl x509 -fingerprint
// -sha256` prints it (hex pairs with colons), computed in the browser from the downloaded certificate.
export async function certificateFingerprint(pem: string): Promise<string> {
  const base64 = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '')
  const der = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')
}
