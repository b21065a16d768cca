import CSQLite
@_spi(Internals) import NavArchive
import NavPersistence

/// Facts about the SQLite library NavPersistence is linked against.
///
/// The store relies on the system libsqlite3 (not a bundled copy), so the version in use is a
/// property of the machine; tools print it so that a support report says which one it was.
@_spi(Internals) public enum SQLiteLibrary {
  /// The runtime version string of the linked libsqlite3, for example `3.40.1`.
  public static var version: String {
    String(cString: sqlite3_libversion())
  }

  /// The runtime version as a number (`3040001` for 3.40.1), for comparing against a minimum.
  package static var versionNumber: Int {
    Int(sqlite3_libversion_number())
  }
}
