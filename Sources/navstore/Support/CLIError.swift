/// A failure the CLI reports as one line on stderr, with a non-zero exit status.
///
/// Commands translate every library error into one of these, worded for the person at the
/// terminal: what was wrong and, where it helps, what to do.
struct CLIError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
