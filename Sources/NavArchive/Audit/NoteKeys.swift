import Crypto
import Foundation
@_spi(Internals) import NavHistory

/// An Ed25519 key that signs notes, in the text form of the signed-note format (C2SP
/// `signed-note`, as Go's checksum database, Sigsum and Rekor use it):
/// `PRIVATE+KEY+<name>+<key hash>+<base64 of 0x01 and the 32-byte seed>`.
///
/// The name says whose signature it is (a person, a team, a service); the key hash, the first
/// four bytes of SHA-256 over the name and the package key, lets a verifier pick the signature
/// line that is meant for its key.
package struct NoteSigner: Sendable {
  /// The key's name.
  package let name: String
  /// The 32-byte Ed25519 seed. (Crypto's key types are not `Sendable`; their bytes are.)
  private let seed: [UInt8]
  /// The package half, to hand to verifiers.
  package let verifier: NoteVerifier

  /// A new random key.
  package init(name: String) throws(NoteError) {
    try Self.checkName(name)
    let key = Curve25519.Signing.PrivateKey()
    self.name = name
    seed = Array(key.rawRepresentation)
    verifier = NoteVerifier(name: name, publicKey: Array(key.publicKey.rawRepresentation))
  }

  /// Refuses a name the format does not allow: empty, or with spaces, control characters or
  /// `+`.
  package static func checkName(_ name: String) throws(NoteError) {
    try NoteKeyName.check(name)
  }

  /// A key from its text form.
  package init(text: String) throws(NoteError) {
    // Base64 has '+' in its alphabet: the key is whatever follows the fourth '+'.
    let fields = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
      separator: "+", maxSplits: 4, omittingEmptySubsequences: false)
    guard fields.count == 5, fields[0] == "PRIVATE", fields[1] == "KEY" else {
      throw .malformedKey("a signing key reads PRIVATE+KEY+<name>+<hash>+<key>")
    }
    let name = String(fields[2])
    try NoteKeyName.check(name)
    guard let bytes = NoteKeyName.canonicalBase64(fields[4]), bytes.count == 33, bytes.first == NoteKeyName.ed25519
    else {
      throw .malformedKey("the signing key '\(name)' is not an Ed25519 key (base64 of 0x01 and 32 bytes)")
    }
    guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes.dropFirst()) else {
      throw .malformedKey("the signing key '\(name)' is not a valid Ed25519 key")
    }
    self.name = name
    seed = Array(bytes.dropFirst())
    verifier = NoteVerifier(name: name, publicKey: Array(key.publicKey.rawRepresentation))
    guard fields[3] == NoteKeyName.hashText(verifier.keyHash) else {
      throw .malformedKey("the signing key '\(name)' has a key hash that does not match its key")
    }
  }

  /// The text form, to keep in a file only its owner can read.
  package var text: String {
    "PRIVATE+KEY+\(name)+\(NoteKeyName.hashText(verifier.keyHash))+"
      + Data([NoteKeyName.ed25519] + seed).base64EncodedString()
  }

  /// The signature of `message`.
  func signature(for message: [UInt8]) throws(NoteError) -> [UInt8] {
    do {
      return Array(try Curve25519.Signing.PrivateKey(rawRepresentation: seed).signature(for: message))
    } catch {
      throw .signingFailed(String(describing: error))
    }
  }
}

/// The package half of a `NoteSigner`, in the verifier-key text form of the signed-note format:
/// `<name>+<key hash>+<base64 of 0x01 and the 32-byte package key>`.
package struct NoteVerifier: Sendable, Hashable, CustomStringConvertible {
  /// The key's name, as signature lines give it.
  package let name: String
  /// The 32-byte Ed25519 package key.
  private let publicKey: [UInt8]

  init(name: String, publicKey: [UInt8]) {
    self.name = name
    self.publicKey = publicKey
  }

  /// A verifier key from its text form.
  package init(text: String) throws(NoteError) {
    // Base64 has '+' in its alphabet: the key is whatever follows the second '+'.
    let fields = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
      separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
    guard fields.count == 3 else {
      throw .malformedKey("a verifier key reads <name>+<hash>+<key>")
    }
    let name = String(fields[0])
    try NoteKeyName.check(name)
    guard let bytes = NoteKeyName.canonicalBase64(fields[2]), bytes.count == 33, bytes.first == NoteKeyName.ed25519,
      (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes.dropFirst())) != nil
    else {
      throw .malformedKey("the verifier key '\(name)' is not an Ed25519 key (base64 of 0x01 and 32 bytes)")
    }
    self.name = name
    publicKey = Array(bytes.dropFirst())
    guard fields[1] == NoteKeyName.hashText(keyHash) else {
      throw .malformedKey("the verifier key '\(name)' has a key hash that does not match its key")
    }
  }

  /// The text form.
  package var description: String {
    "\(name)+\(NoteKeyName.hashText(keyHash))+" + Data([NoteKeyName.ed25519] + publicKey).base64EncodedString()
  }

  /// The first four bytes of SHA-256(name || "\n" || 0x01 || package key).
  var keyHash: [UInt8] {
    var hasher = SHA256()
    hasher.update(data: Array(name.utf8) + [0x0A, NoteKeyName.ed25519] + publicKey)
    return Array(hasher.finalize().prefix(4))
  }

  func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
    guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
    return key.isValidSignature(signature, for: message)
  }
}

/// What names and key texts of the signed-note format allow.
enum NoteKeyName {
  /// The algorithm byte of Ed25519 keys.
  static let ed25519: UInt8 = 0x01

  /// A key name is non-empty printable text without spaces (of any script), control
  /// characters or `+`, as Go's `sumdb/note` requires.
  static func check(_ name: String) throws(NoteError) {
    let allowed = name.unicodeScalars.allSatisfy { scalar in
      scalar != "+" && !scalar.properties.isWhitespace && scalar.properties.generalCategory != .control
    }
    guard !name.isEmpty, allowed else {
      throw .malformedKey("a key name must be non-empty, without spaces, control characters or '+' (got \"\(name)\")")
    }
  }

  /// Bytes from base64 written the one canonical way: a decoder that ignores the last
  /// character's unused bits would let one key or signature be written several ways.
  static func canonicalBase64(_ text: Substring) -> Data? {
    guard let bytes = Data(base64Encoded: String(text)), bytes.base64EncodedString() == text else { return nil }
    return bytes
  }

  /// The key hash as eight lowercase hex digits.
  static func hashText(_ hash: [UInt8]) -> String {
    HashChain.hex(hash)
  }
}
