import ArgumentParser
@_spi(Internals) import NavArchive
@_spi(Internals) import NavPersistence

/// `navstore keygen`: a new Ed25519 key for signing checkpoints.
struct KeygenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "keygen",
    abstract: "Make an Ed25519 key that signs checkpoints; print its verifier key.",
    discussion: """
      Writes the signing key to --out, readable by its owner only (mode 0600), and never over an \
      existing file. Prints the verifier key (name+hash+key, the signed-note format's), which \
      auditors use to check checkpoints: hand it out freely, and keep the signing key where the \
      store's writers cannot read it (see docs/guides/audits.md).

      Examples:
        navstore keygen --out ~/.navstore/auditor.key --name acme-audit > auditor.pub
      """)

  @Option(help: "The file the signing key is written to (it must not exist).")
  var out: String

  @Option(help: "The key's name, shown on every signature (no spaces or '+').")
  var name = "navstore"

  func validate() throws {
    do {
      try NoteSigner.checkName(name)
    } catch {
      throw ValidationError("--name: \(error)")
    }
  }

  func run() throws {
    let signer: NoteSigner
    do {
      signer = try NoteSigner(name: name)
    } catch {
      throw CLIError("--name: \(error)")
    }
    try AuditFiles.create(out, contents: signer.text + "\n", option: "--out")
    print(signer.verifier.description)
  }
}
