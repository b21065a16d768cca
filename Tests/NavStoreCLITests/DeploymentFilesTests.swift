import Foundation
import NavTestSupport
import Testing

/// The deployment files the collector guide points to work as shipped: the systemd unit's
/// `ExecStart` starts a collector (paths moved to a temporary folder and port 0) that stops on
/// SIGTERM well within the unit's stop timeout, and the nginx server block passes `nginx -t`
/// (with a test certificate in place of the real one's paths).
@Suite(.waitsOnProcesses) struct DeploymentFilesTests {
  static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("deploy")

  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// The value of the unit's `key=` line.
  static func unitValue(_ key: String, in unit: String) -> String? {
    unit.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
  }

  @Test func theSystemdUnitsCommandStartsACollectorThatStopsWithinItsTimeout() throws {
    let unit = try String(contentsOf: Self.deploy.appendingPathComponent("navstore-collector.service"), encoding: .utf8)
    let command = try #require(Self.unitValue("ExecStart", in: unit))
    let state = try #require(Self.unitValue("WorkingDirectory", in: unit))
    var arguments = command.split(separator: " ").map(String.init)
    #expect(arguments.first == "/usr/local/bin/navstore" && arguments.dropFirst().first == "serve")
    arguments = Array(arguments.dropFirst(2)).map {
      $0.replacingOccurrences(of: state, with: folder.url.path).replacingOccurrences(
        of: "127.0.0.1:8740", with: "127.0.0.1:0")
    }
    // The drain, and the process's own 5 s after it, end before systemd would kill.
    let drain = try #require(arguments.firstIndex(of: "--drain-timeout").flatMap { Int(arguments[$0 + 1]) })
    let stop = try #require(Self.unitValue("TimeoutStopSec", in: unit).flatMap(Int.init))
    #expect(drain + 5 < stop)
    let token = try NavStoreProcess.run(
      ["token", "create", "--app", "shop", "--role", "read", "--db", folder.path("collector.sqlite")])
    #expect(token.status == 0)
    let server = try CollectorProcess(
      db: folder.path("collector.sqlite"), in: folder.url,
      options: Array(arguments.drop { $0 != "--trusted-proxy" }))
    #expect(server.url.hasPrefix("http://127.0.0.1:"), "the unit's command did not start a collector")
    #expect(try DrillHTTP.get(server.url + "/readyz", token: "").status == 200)
    let started = ContinuousClock.now
    #expect(server.stop(SIGTERM) == 0)
    #expect(ContinuousClock.now - started < .seconds(stop))
  }

  @Test(
    .enabled(
      if: CollectorTLSAndProxyTests.nginx != nil || CollectorTLSAndProxyTests.nginxRequired, "nginx is not installed"))
  func theNginxServerBlockPassesNginxsOwnCheck() throws {
    let nginx = try #require(CollectorTLSAndProxyTests.nginx, "NAVSTORE_REQUIRE_NGINX=1, but nginx is not installed")
    let made = try NavStoreProcess.shell(
      "cd '\(folder.url.path)' && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
        + "-keyout key.pem -out cert.pem -days 2 -subj /CN=collector.example.com")
    try #require(made == 0, "openssl could not make a certificate")
    let block = try String(contentsOf: Self.deploy.appendingPathComponent("nginx-navstore.conf"), encoding: .utf8)
      .replacingOccurrences(
        of: "/etc/letsencrypt/live/collector.example.com/fullchain.pem", with: folder.path("cert.pem")
      )
      .replacingOccurrences(of: "/etc/letsencrypt/live/collector.example.com/privkey.pem", with: folder.path("key.pem"))
    #expect(block.contains(folder.path("cert.pem")) && block.contains(folder.path("key.pem")))
    let prefix = folder.path("nginx")
    try FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
    try block.write(toFile: prefix + "/navstore.conf", atomically: true, encoding: .utf8)
    try """
    pid \(prefix)/nginx.pid;
    error_log \(prefix)/logs/error.log;
    events {}
    http {
      access_log off;
      include \(prefix)/navstore.conf;
    }
    """.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
    let check = Process()
    check.executableURL = URL(fileURLWithPath: nginx)
    check.arguments = ["-t", "-q", "-p", prefix, "-c", prefix + "/nginx.conf"]
    let errors = Pipe()
    check.standardError = errors
    check.standardOutput = FileHandle.nullDevice
    try check.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    check.waitUntilExit()
    #expect(check.terminationStatus == 0, "\(said)")
  }
}
