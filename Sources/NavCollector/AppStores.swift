import NavPersistence

/// The store of each app a collector serves, opened once and kept: the main store's file for
/// the default app, a file beside it for each other (`SessionStore.app(_:)`).
actor AppStores {
  private let main: SessionStore
  private var opened: [AppName: SessionStore] = [:]

  init(main: SessionStore) { self.main = main }

  /// The store of `app`.
  func store(for app: AppName) throws(StoreError) -> SessionStore {
    if let store = opened[app] { return store }
    let store = try main.app(app)
    opened[app] = store
    return store
  }
}
