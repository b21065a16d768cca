import Foundation
import NavCore
import NavPersistence

/// Reads the JSON values given on the command line: inline, or `@FILE`, or `@-` for stdin.
enum JSONInput {
  /// The text of a JSON argument.
  static func text(of argument: String, option: String) throws(CLIError) -> [UInt8] {
    let bytes = try rawText(of: argument, option: option)
    // A file saved by some editors begins with a UTF-8 byte order mark, which is not JSON.
    return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
  }

  private static func rawText(of argument: String, option: String) throws(CLIError) -> [UInt8] {
    guard argument.hasPrefix("@") else { return Array(argument.utf8) }
    let path = String(argument.dropFirst())
    if path == "-" {
      do {
        return Array(try FileHandle.standardInput.readToEnd() ?? Data())
      } catch {
        throw CLIError("\(option): cannot read standard input (\(LineReaderError.systemReason(for: error)))")
      }
    }
    return try fileBytes(path, option: option)
  }

  /// A file's bytes, or an error naming the option and the file.
  static func fileBytes(_ path: String, option: String) throws(CLIError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CLIError("\(option): cannot read the file '\(path)' (does it exist and is it readable?)")
    }
    return Array(data)
  }

  /// A wire-format value from a JSON argument.
  static func decode<T: Decodable>(_ type: T.Type, from argument: String, option: String) throws(CLIError) -> T {
    let bytes = try text(of: argument, option: option)
    do {
      return try WireFormat.decode(type, from: bytes)
    } catch {
      throw CLIError("\(option): \(error)")
    }
  }
}
