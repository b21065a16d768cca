import NavContract

extension SessionStore {
  /// What the store's sessions are signed with when uploaded: its device key, if it has made
  /// one (on its first recording).
  package func deviceSigner() throws(StoreError) -> DeviceSigner? {
    try withReadTransaction { engine throws(StoreError) in try engine.deviceSigningKey(creating: false) }.map(
      DeviceSigner.init(key:))
  }
}
