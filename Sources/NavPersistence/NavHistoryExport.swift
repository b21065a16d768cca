// What the store hands an app (a session's summary and state, a verification's result, a
// tombstone) is the history's own value, named without another import.
@_exported @_spi(Internals) import NavHistory
