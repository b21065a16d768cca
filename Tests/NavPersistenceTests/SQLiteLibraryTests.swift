@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools
import Testing

@Suite struct SQLiteLibraryTests {
  @Test func linksAgainstASQLiteRecentEnoughForTheStore() {
    // The store needs WAL, RETURNING and strict tables: 3.37 or newer.
    #expect(SQLiteLibrary.versionNumber >= 3_037_000, "linked SQLite is \(SQLiteLibrary.version)")
    #expect(SQLiteLibrary.version.split(separator: ".").count == 3)
  }
}
