@_spi(Internals) import NavArchive
@_spi(Internals) import NavHistory
import NavPersistence

extension SQLiteStatement: EventsRowColumns {}
