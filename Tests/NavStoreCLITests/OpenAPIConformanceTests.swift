import Foundation
import NavTestSupport
import Testing

/// `docs/spec/openapi.yaml` against a live `navstore serve`, through
/// `Tests/OpenAPI/conformance.py`: the document is valid OpenAPI 3.1 (openapi-spec-validator);
/// every status it lists for every operation is brought out on loopback, each answer matching
/// its documented content type, headers and schema; then schemathesis sends generated requests
/// (50 examples an operation, with an ingest and with a read token: about 1,300 requests) and
/// holds the answers to the document too, none a 5xx. A deeper run is the same script with more
/// examples: `python3 Tests/OpenAPI/conformance.py .build/debug/navstore --schemathesis 500`.
///
/// They run where the Python tools are installed (`pip install openapi-spec-validator
/// schemathesis`). CI installs them and sets `NAVSTORE_REQUIRE_OPENAPI=1`, so there a missing
/// tool fails the suite instead of skipping it.
@Suite(
  .waitsOnProcesses,
  .enabled(if: OpenAPITools.installed || OpenAPITools.isRequired, "the OpenAPI tools are not installed"))
struct OpenAPIConformanceTests {
  @Test func theDocumentIsValidAndTheLiveCollectorKeepsToIt() throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("OpenAPI/conformance.py")
    let result = try OpenAPITools.python([script.path, NavStoreProcess.binary.path, "--schemathesis", "50"])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    #expect(result.stdout.contains("documented (operation, status) pairs seen"), "\(result.stdout)")
    // At least 1,000 generated requests in all, every one passed.
    let generated = result.stdout.split(separator: "\n").filter { $0.contains("openapi: schemathesis, ") }.compactMap {
      line -> Int? in
      guard let match = line.firstMatch(of: /(\d+) generated, (\d+) passed/), match.output.1 == match.output.2 else {
        return nil
      }
      return Int(match.output.1)
    }
    #expect(generated.count == 2 && generated.reduce(0, +) >= 1_000, "\(result.stdout)")
  }
}

enum OpenAPITools {
  /// Set by CI: missing tools fail the conformance test instead of skipping it.
  static let isRequired = ProcessInfo.processInfo.environment["NAVSTORE_REQUIRE_OPENAPI"] == "1"

  /// Whether python3 has the validator and schemathesis is on the PATH.
  static let installed: Bool = {
    let check =
      "import openapi_spec_validator, jsonschema, referencing, yaml; import shutil, sys; "
      + "sys.exit(0 if shutil.which('schemathesis') else 1)"
    return (try? python(["-c", check]).status) == 0
  }()

  /// Runs `python3` (from the PATH) with `arguments`.
  static func python(_ arguments: [String]) throws -> NavStoreProcess.Result {
    let result = try Python.run(arguments)
    return NavStoreProcess.Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
  }
}
