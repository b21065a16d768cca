import Crypto
import NavCore

extension StoreEngine {
  /// The device's signing key (Ed25519), as the store keeps it; made and kept now when
  /// `creating` and there is none. `nil` when there is none and it is not to be made.
  ///
  /// One key per store file, which is one per app install: made on the first recording, named
  /// (its public half) in every session's start from then on, and used by the uploader to sign
  /// each request, so a collector takes those sessions' lines from this device only. The
  /// private half never leaves the store file.
  func deviceSigningKey(creating: Bool) throws(StoreError) -> Curve25519.Signing.PrivateKey? {
    let statement = try prepare("SELECT private_key FROM device_key WHERE id = 1")
    defer { statement.reset() }
    if try step(statement) {
      // A row edited by hand into something that is no key is as if there were none: the
      // sessions are recorded without one, not refused.
      return try? Curve25519.Signing.PrivateKey(rawRepresentation: statement.blob(0))
    }
    guard creating else { return nil }
    let key = Curve25519.Signing.PrivateKey()
    try execute(
      try prepare("INSERT INTO device_key (id, private_key, created_at) VALUES (1, ?, ?)"),
      [.blob(Array(key.rawRepresentation)), .integer(Timestamp.now.millisecondsSince1970)])
    return key
  }
}

extension SessionStore {
  /// The public half of the device's key, if the store has made one: what its sessions' starts
  /// name.
  package func deviceKey() throws(StoreError) -> DeviceKey? {
    try deviceSigner()?.deviceKey
  }
}
