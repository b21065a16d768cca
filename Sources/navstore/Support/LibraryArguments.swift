import ArgumentParser
@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavPersistence

// The library's string-backed enums as option values: argument-parser reads each by its raw
// value and lists every case in `--help` (its members for `RawRepresentable` and `CaseIterable`
// types), so nothing is written twice here.

extension EventOrigin: ExpressibleByArgument {}
extension HostProfile: ExpressibleByArgument {}
extension ExportTable: ExpressibleByArgument {}
extension ExportFormat: ExpressibleByArgument {}
