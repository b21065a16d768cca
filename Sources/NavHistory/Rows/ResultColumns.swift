/// The columns of a query's result, declared once as an enum: a case's position is its column
/// index (raw values count up from 0 in declaration order) and `selectList` is built from the
/// same cases, so a row is read by name and can never be read at the wrong position.
package protocol ResultColumns: CaseIterable, RawRepresentable where RawValue == Int32 {
  /// The column's expression in the select list: a column name, or any SQL expression.
  var expression: String { get }
}

extension ResultColumns {
  /// `a, b, c`: every column, in position order, for a `SELECT`.
  package static var selectList: String { allCases.map(\.expression).joined(separator: ", ") }
}
