import Foundation
@_spi(Internals) import NavHistory

/// A text and the signatures over it, in the signed-note format (C2SP `signed-note`):
///
///     <text: lines, each ending in a newline>
///     <a blank line>
///     — <key name> <base64 of the key hash and the signature>
///
/// One note may carry several signatures; a verifier uses the line whose name and key hash are
/// its key's, and ignores the others. The text is signed byte for byte, its final newline
/// included, so no byte of it can change unseen.
package struct SignedNote: Sendable, Hashable {
  /// The signed text, ending in a newline.
  package let text: String
  /// The signature lines, as they follow the text.
  package let signatures: [Signature]

  /// One signature line.
  package struct Signature: Sendable, Hashable {
    /// The signing key's name.
    package let name: String
    /// The signing key's hash (4 bytes).
    package let keyHash: [UInt8]
    /// The Ed25519 signature (64 bytes).
    package let bytes: [UInt8]
  }

  /// The text, signed by `signer`.
  package init(text: String, signedBy signer: NoteSigner) throws(NoteError) {
    try Self.checkText(text)
    self.text = text
    let signature = try signer.signature(for: Array(text.utf8))
    signatures = [Signature(name: signer.name, keyHash: signer.verifier.keyHash, bytes: signature)]
  }

  /// Reads a note from its full text (as `serialized` writes it).
  package init(parsing note: String) throws(NoteError) {
    guard let split = note.range(of: "\n\n", options: .backwards) else {
      throw .malformedNote("a signed note is its text, a blank line, then signature lines; no blank line was found")
    }
    let text = String(note[..<split.lowerBound]) + "\n"
    try Self.checkText(text)
    let lines = note[split.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.last == "" else { throw .malformedNote("a signed note ends with a newline") }
    guard lines.count - 1 <= Self.maximumSignatures else {
      throw .malformedNote("the note has more than \(Self.maximumSignatures) signature lines")
    }
    var signatures: [Signature] = []
    for line in lines.dropLast() {
      // A line of a kind this reader does not know (a witness's cosignature, another
      // algorithm) is skipped, as the format asks; a line that is no signature line at all
      // is refused.
      if let signature = try Self.signature(parsing: line) { signatures.append(signature) }
    }
    guard !signatures.isEmpty else { throw .malformedNote("the note has no Ed25519 signature line") }
    self.text = text
    self.signatures = signatures
  }

  /// The note as a file holds it.
  package var serialized: String {
    text + "\n" + signatures.map { "— \($0.name) " + Data($0.keyHash + $0.bytes).base64EncodedString() + "\n" }.joined()
  }

  /// Checks the note's signature by `verifier`: the note must carry a line of that key (name
  /// and key hash), and its signature must hold for the text.
  package func verify(with verifier: NoteVerifier) throws(NoteError) {
    let mine = signatures.filter { $0.name == verifier.name && $0.keyHash == verifier.keyHash }
    guard !mine.isEmpty else {
      if let namesake = signatures.first(where: { $0.name == verifier.name }) {
        throw .unknownKey(
          "the note's signature by '\(verifier.name)' is from another key of that name (key hash "
            + "\(NoteKeyName.hashText(namesake.keyHash)), the verifier key's is \(NoteKeyName.hashText(verifier.keyHash)))"
        )
      }
      let others = signatures.map(\.name).joined(separator: ", ")
      throw .unknownKey("the note is not signed by the key '\(verifier.name)' (it carries signatures by: \(others))")
    }
    guard mine.contains(where: { verifier.isValidSignature($0.bytes, for: Array(text.utf8)) }) else {
      throw .badSignature(
        "the signature by '\(verifier.name)' does not hold for the note's text: the note was changed after it was "
          + "signed, or signed with another key of that name"
      )
    }
  }

  private static func checkText(_ text: String) throws(NoteError) {
    guard text.hasSuffix("\n"), !text.hasPrefix("\n") else {
      throw .malformedNote("a note's text is lines, each ending in a newline")
    }
    guard !text.contains("\n\n") else { throw .malformedNote("a note's text has no blank line") }
    guard text.unicodeScalars.allSatisfy({ $0 == "\n" || ($0.value >= 0x20 && $0.value != 0x7F) }) else {
      throw .malformedNote("a note's text has no control characters but newlines")
    }
  }

  /// Go's `sumdb/note` reads at most this many signatures; so does this reader.
  static let maximumSignatures = 100

  /// One signature line: an Ed25519 signature, or `nil` for a well-formed line of another kind.
  private static func signature(parsing line: Substring) throws(NoteError) -> Signature? {
    let parts = line.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "—" else {
      throw .malformedNote("a signature line reads '— <name> <signature>' (got \"\(line)\")")
    }
    let name = String(parts[1])
    try NoteKeyName.check(name)
    guard let bytes = NoteKeyName.canonicalBase64(parts[2]), bytes.count >= 5 else {
      throw .malformedNote("the signature by '\(name)' is not base64 of a key hash and a signature")
    }
    guard bytes.count == 4 + 64 else { return nil }
    return Signature(name: name, keyHash: Array(bytes.prefix(4)), bytes: Array(bytes.dropFirst(4)))
  }
}
