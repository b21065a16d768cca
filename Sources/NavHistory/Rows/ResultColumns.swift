/// The columns of a query's result, declared once as an enum: a case's position is its column
/// index (raw values count up from 0 in declaration order) and `selectList` is built from the
/// same cases, so a row is read by name and can never be read at the wrong position.
package protocol ResultColumns: CaseIterable, RawRepresentable where RawValue == Int32 {
  /// The column's expression in the select list: a column name, or any SQL expression.
  var expression: String { get }
  /// `a, b, c`: every column, in position order, for a `SELECT`. Each type keeps it
  /// (`static let selectList = columnList`): built on every use, it cost a query more than
  /// SQLite's own work on the row, and an append runs two of them for every event.
  static var selectList: String { get }
}

extension ResultColumns {
  /// The select list built from the cases, for a type's `selectList` to keep.
  package static var columnList: String { allCases.map(\.expression).joined(separator: ", ") }
}
