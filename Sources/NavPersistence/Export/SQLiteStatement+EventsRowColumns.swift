@_spi(Internals) import NavHistory

extension SQLiteStatement: EventsRowColumns {}
