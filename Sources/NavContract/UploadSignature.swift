import Crypto
import NavCore

/// How an upload is signed by the device that made its sessions, the same on both sides of the
/// collector's contract: the request names the key's public half in `NavStore-Device-Key` and
/// carries, in `NavStore-Signature`, the Ed25519 signature of `navstore-upload-v1`, a newline,
/// and the SHA-256 of the body exactly as sent (gzip'd when it is), both in unpadded base64url.
/// The collector hashes the body as it streams in, so checking the signature costs no copy of it.
package enum UploadSignature {
  /// The header naming the device's key.
  package static let keyHeader = "NavStore-Device-Key"
  /// The header holding the signature.
  package static let signatureHeader = "NavStore-Signature"

  /// What is signed, for a body whose SHA-256 is `digest`.
  package static func message(digest: some Sequence<UInt8>) -> [UInt8] {
    Array("navstore-upload-v1\n".utf8) + Array(digest)
  }

  /// Whether `signature` (base64url) is `key`'s for a body whose SHA-256 is `digest`.
  package static func verify(signature: String, key: DeviceKey, digest: some Sequence<UInt8>) -> Bool {
    guard let bytes = Base64URL.decode(signature), bytes.count == 64,
      let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key.rawRepresentation)
    else { return false }
    return publicKey.isValidSignature(bytes, for: message(digest: digest))
  }
}

/// A device's key as the uploader and `navstore push` sign with it.
package struct DeviceSigner: Sendable {
  /// The private key's 32 bytes (swift-crypto's key type is not `Sendable`).
  private let secret: [UInt8]

  package init(key: Curve25519.Signing.PrivateKey) { secret = Array(key.rawRepresentation) }

  /// A signer with a new key of its own: another device, for the tests and drills that play one.
  package static func generated() -> DeviceSigner { DeviceSigner(key: Curve25519.Signing.PrivateKey()) }

  private var key: Curve25519.Signing.PrivateKey {
    get throws { try Curve25519.Signing.PrivateKey(rawRepresentation: secret) }
  }

  /// The public half, as sessions' starts name it.
  package var deviceKey: DeviceKey? { (try? key)?.publicKey.deviceKey }

  /// The two headers of an upload of `body` (as sent): the key, and the signature.
  package func headers(for body: [UInt8]) throws -> [String: String] {
    let key = try key
    let signature = try key.signature(for: UploadSignature.message(digest: SHA256.hash(data: body)))
    return [
      UploadSignature.keyHeader: Base64URL.encode(key.publicKey.rawRepresentation),
      UploadSignature.signatureHeader: Base64URL.encode(signature),
    ]
  }
}

extension Curve25519.Signing.PublicKey {
  /// The key as the wire format names it.
  package var deviceKey: DeviceKey? { DeviceKey(rawRepresentation: Array(rawRepresentation)) }
}
