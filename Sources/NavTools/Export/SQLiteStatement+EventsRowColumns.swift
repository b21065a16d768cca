@_spi(Internals) import NavHistory
import NavPersistence

extension SQLiteStatement: EventsRowColumns {}
