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

  /// The shipped server block, with a test certificate and ports of the test's own, passes
  /// nginx's check, and running in front of a collector it passes the API and the probes and
  /// keeps `/metrics` (every app's name and store size) off the public address.
  @Test(
    .enabled(
      if: CollectorTLSAndProxyTests.nginx != nil || CollectorTLSAndProxyTests.nginxRequired, "nginx is not installed"))
  func theNginxServerBlockServesTheCollectorAndKeepsTheMetricsIn() throws {
    let nginx = try #require(CollectorTLSAndProxyTests.nginx, "NAVSTORE_REQUIRE_NGINX=1, but nginx is not installed")
    let made = try NavStoreProcess.shell(
      "cd '\(folder.url.path)' && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
        + "-keyout key.pem -out cert.pem -days 2 -subj /CN=collector.example.com")
    try #require(made == 0, "openssl could not make a certificate")
    let server = try CollectorProcess(
      db: folder.path("collector.sqlite"), in: folder.url, options: ["--trusted-proxy", "127.0.0.1"])
    try #require(server.url.hasPrefix("http://127.0.0.1:"), "serve did not start")
    defer { _ = server.stop(SIGTERM) }
    let port = try CollectorTLSAndProxyTests.freePort(on: "127.0.0.2")
    let block = try String(contentsOf: Self.deploy.appendingPathComponent("nginx-navstore.conf"), encoding: .utf8)
      .replacingOccurrences(
        of: "/etc/letsencrypt/live/collector.example.com/fullchain.pem", with: folder.path("cert.pem")
      )
      .replacingOccurrences(of: "/etc/letsencrypt/live/collector.example.com/privkey.pem", with: folder.path("key.pem"))
      .replacingOccurrences(of: "listen 443 ssl;", with: "listen 127.0.0.2:\(port) ssl;")
      .replacingOccurrences(of: "listen [::]:443 ssl;", with: "")
      .replacingOccurrences(of: "server 127.0.0.1:8740;", with: "server 127.0.0.1:\(server.port);")
    #expect(block.contains("127.0.0.2:\(port)") && block.contains("127.0.0.1:\(server.port)"))
    let prefix = folder.path("nginx")
    try FileManager.default.createDirectory(atPath: prefix + "/tmp", withIntermediateDirectories: true)
    try block.write(toFile: prefix + "/navstore.conf", atomically: true, encoding: .utf8)
    try """
    daemon off;
    master_process off;
    pid \(prefix)/nginx.pid;
    error_log \(prefix)/error.log;
    events {}
    http {
      access_log off;
      client_body_temp_path \(prefix)/tmp;
      proxy_temp_path \(prefix)/tmp;
      fastcgi_temp_path \(prefix)/tmp;
      uwsgi_temp_path \(prefix)/tmp;
      scgi_temp_path \(prefix)/tmp;
      include \(prefix)/navstore.conf;
    }
    """.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
    let proxy = Process()
    proxy.executableURL = URL(fileURLWithPath: nginx)
    proxy.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf"]
    proxy.standardOutput = FileHandle.nullDevice
    proxy.standardError = FileHandle.nullDevice
    try proxy.run()
    defer {
      kill(proxy.processIdentifier, SIGKILL)
      proxy.waitUntilExit()
    }
    func status(_ path: String) throws -> String {
      var answer = ""
      for _ in 0..<50 {
        answer = try NavStoreProcess.shellOutput(
          "curl -sk -o /dev/null -w '%{http_code}' --resolve collector.example.com:\(port):127.0.0.2 "
            + "https://collector.example.com:\(port)\(path)")
        if answer != "000" { break }
        Thread.sleep(forTimeInterval: 0.1)  // nginx is still starting
      }
      return answer
    }
    #expect(try status("/readyz") == "200")
    #expect(try status("/v1/limits") == "401")
    for path in ["/metrics", "/metrics/", "//metrics", "/metrics?x=1", "/%6Detrics"] {
      #expect(try status(path) == "404", "\(path): the metrics are not served on the public address")
    }
    #expect(try DrillHTTP.get(server.url + "/metrics", token: "").status == 200, "the scraper reads them directly")
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
