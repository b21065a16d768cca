/// The version `navstore --version` prints.
enum NavStoreVersion {
  static let current = "0.1.0"
}
