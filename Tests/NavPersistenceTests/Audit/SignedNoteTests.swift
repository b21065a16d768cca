import Foundation
@_spi(Internals) import NavArchive
@_spi(Internals) import NavPersistence
import Testing

/// Signed notes and their keys, held to the reference vector of Go's `sumdb/note` package (the
/// format's first implementation) and to every way a note can be forged.
@Suite struct SignedNoteTests {
  static let goVerifier = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
  static let goSigner = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
  static let goText =
    "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
  static let goNote =
    goText
    + "\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"

  @Test func theReferenceKeysAndNoteReadSignAndVerifyAsGosDo() throws {
    let signer = try NoteSigner(text: Self.goSigner)
    #expect(signer.text == Self.goSigner)
    #expect(signer.verifier.description == Self.goVerifier)
    let verifier = try NoteVerifier(text: Self.goVerifier)
    #expect(verifier == signer.verifier)
    // Ed25519 signs deterministically: the same bytes as Go's.
    #expect(try SignedNote(text: Self.goText, signedBy: signer).serialized == Self.goNote)
    let note = try SignedNote(parsing: Self.goNote)
    #expect(note.text == Self.goText)
    try note.verify(with: verifier)
  }

  @Test func aNoteRoundTripsAndVerifies() throws {
    let signer = try NoteSigner(name: "support-team")
    let note = try SignedNote(text: "navstore/abc\n3\nroot\n", signedBy: signer)
    let read = try SignedNote(parsing: note.serialized)
    #expect(read == note)
    try read.verify(with: try NoteVerifier(text: signer.verifier.description))
    #expect(try NoteSigner(text: signer.text).verifier == signer.verifier)
  }

  @Test func anotherKeyIsRefusedEvenUnderTheSameName() throws {
    let note = try SignedNote(text: Self.goText, signedBy: try NoteSigner(text: Self.goSigner))
    let impostor = try NoteSigner(name: "PeterNeumann")
    #expect(throws: NoteError.self) { try note.verify(with: impostor.verifier) }
    #expect(throws: NoteError.self) { try note.verify(with: try NoteSigner(name: "someone").verifier) }
  }

  @Test func aChangedByteAnywhereInTheTextIsRefused() throws {
    let verifier = try NoteVerifier(text: Self.goVerifier)
    let bytes = Array(Self.goNote.utf8)
    let textLength = Self.goText.utf8.count
    for position in 0..<textLength - 1 {
      var changed = bytes
      changed[position] = changed[position] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
      guard let text = String(validating: changed, as: UTF8.self) else { continue }
      do {
        try SignedNote(parsing: text).verify(with: verifier)
        Issue.record("a note changed at byte \(position) verified")
      } catch {}
    }
  }

  @Test func aChangedSignatureIsRefused() throws {
    let verifier = try NoteVerifier(text: Self.goVerifier)
    let signatureStart = try #require(Self.goNote.range(of: "— PeterNeumann ")).upperBound
    var note = Self.goNote
    let position = note.index(signatureStart, offsetBy: 10)
    note.replaceSubrange(position...position, with: note[position] == "A" ? "B" : "A")
    #expect(throws: NoteError.self) { try SignedNote(parsing: note).verify(with: verifier) }
  }

  @Test func aSignatureLineFromAnotherKeyIsRefused() throws {
    let other = try NoteSigner(name: "PeterNeumann")
    let forged = try SignedNote(text: Self.goText, signedBy: other)
    #expect(throws: NoteError.self) {
      try SignedNote(parsing: forged.serialized).verify(with: try NoteVerifier(text: Self.goVerifier))
    }
  }

  @Test(arguments: [
    "", "no blank line\n", "text\n\n", "text\n\nnot a signature\n", "text\n\n— name\n", "text\n\n— name !!!\n",
    "text\n\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=",
  ])
  func malformedNotesAreRefusedWithAReason(_ text: String) {
    #expect(throws: NoteError.self) { try SignedNote(parsing: text) }
  }

  @Test(arguments: [
    "", "PeterNeumann", "PeterNeumann+c74f20a3", "PeterNeumann+00000000+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
    "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "PeterNeumann+c74f20a3+AAAA",
  ])
  func malformedVerifierKeysAreRefused(_ text: String) {
    #expect(throws: NoteError.self) { try NoteVerifier(text: text) }
  }

  @Test func aSignatureLineOfAnotherKindIsSkippedAndTooManyAreRefused() throws {
    let verifier = try NoteVerifier(text: Self.goVerifier)
    let cosignature = "— witness " + Data([1, 2, 3, 4] + Array(repeating: 7, count: 72)).base64EncodedString() + "\n"
    try SignedNote(parsing: Self.goNote + cosignature).verify(with: verifier)
    let flood = String(repeating: cosignature, count: 100)
    #expect(throws: NoteError.self) { try SignedNote(parsing: Self.goNote + flood) }
  }

  @Test func aKeyNameWithASpaceOrPlusIsRefused() {
    #expect(throws: NoteError.self) { try NoteSigner(name: "a b") }
    #expect(throws: NoteError.self) { try NoteSigner(name: "a+b") }
    #expect(throws: NoteError.self) { try NoteSigner(name: "") }
    #expect(throws: NoteError.self) { try NoteSigner(name: "a\u{00A0}b") }
    #expect(throws: NoteError.self) { try NoteSigner(name: "a\u{0085}b") }
    #expect(throws: NoteError.self) { try NoteSigner(name: "a\u{2003}b") }
  }
}

extension SignedNoteTests {
  /// A signature's base64 has one spelling: the last character's unused bits changed (which a
  /// lenient decoder reads as the same bytes) is refused. Found by `StoreProofProperties`.
  @Test func aSignatureInNonCanonicalBase64IsRefused() throws {
    let line = try #require(Self.goNote.split(separator: "\n").last)
    let encoded = try #require(line.split(separator: " ").last)
    // "...AnAM=": the last significant character before the padding carries unused bits.
    let last = encoded.index(encoded.endIndex, offsetBy: -2)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    let value = try #require(alphabet.firstIndex(of: encoded[last]))
    let twin = String(encoded[..<last]) + String(alphabet[value ^ 1]) + String(encoded[encoded.index(after: last)...])
    #expect(Data(base64Encoded: twin) == Data(base64Encoded: String(encoded)), "the twin decodes to the same bytes")
    let note = Self.goNote.replacingOccurrences(of: String(encoded), with: twin)
    #expect(throws: NoteError.self) { try SignedNote(parsing: note) }
  }
}
