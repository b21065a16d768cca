import Foundation
@_spi(Internals) import NavArchive
@_spi(Internals) import NavPersistence

/// The files of checkpoints and proofs: keys, notes and proofs read with errors that name the
/// option and the file, and new files created for their owner alone, never over an old one.
enum AuditFiles {
  /// A text file's contents.
  static func text(_ path: String, option: String) throws(CLIError) -> String {
    let bytes = try JSONInput.fileBytes(path, option: option)
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw CLIError("\(option): '\(path)' is not UTF-8 text")
    }
    return text
  }

  /// The signing key in the file `path` (as `navstore keygen` wrote it).
  static func signer(_ path: String) throws(CLIError) -> NoteSigner {
    do {
      return try NoteSigner(text: try text(path, option: "--key"))
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError("--key: '\(path)' holds no signing key: \(error)")
    }
  }

  /// A verifier key: the key's text itself (`name+hash+key`, as `keygen` prints it), or a file
  /// holding it.
  static func verifier(_ argument: String) throws(CLIError) -> NoteVerifier {
    let text = FileManager.default.fileExists(atPath: argument) ? try self.text(argument, option: "--key") : argument
    do {
      return try NoteVerifier(text: text)
    } catch {
      throw CLIError(
        "--key: not a verifier key (give the line 'navstore keygen' printed, or a file holding it): \(error)")
    }
  }

  /// The signed note in the file `path`.
  static func note(_ path: String, option: String) throws(CLIError) -> SignedNote {
    do {
      return try SignedNote(parsing: try text(path, option: option))
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError("\(option): '\(path)' is not a signed checkpoint: \(error)")
    }
  }

  /// Creates `path` with `contents`, readable and writable by its owner only (0600); refuses
  /// when the file exists, so an old key or checkpoint is never replaced by accident.
  static func create(_ path: String, contents: String, option: String) throws(CLIError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else {
      let reason =
        errno == EEXIST
        ? "it exists; NavStore never replaces one (move it away first)" : String(cString: strerror(errno))
      throw CLIError("\(option): cannot create '\(path)': \(reason)")
    }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      try handle.write(contentsOf: Data(contents.utf8))
      try handle.synchronize()
    } catch {
      try? FileManager.default.removeItem(atPath: path)
      throw CLIError("\(option): cannot write '\(path)': \(LineReaderError.systemReason(for: error))")
    }
  }
}
