import Foundation
import NavCore
import NavTestSupport
import Testing

/// The two ways a collector meets the internet: HTTPS of its own (a self-signed certificate
/// from openssl, checked by curl against it), and behind a reverse proxy (Debian's nginx) whose
/// `X-Forwarded-For` names the client in the log, while a client that names itself is not
/// believed. CI installs nginx and sets `NAVSTORE_REQUIRE_NGINX=1`, so there a missing nginx is
/// a failure, not a skip.
@Suite(.waitsOnProcesses) struct CollectorTLSAndProxyTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// Runs `command` with bash in the test's folder; its exit status and standard output.
  func shell(_ command: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = folder.url
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func httpsWithASelfSignedCertificate() throws {
    let reader = try token("read")
    let made = try shell(
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout key.pem -out cert.pem "
        + "-days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1")
    try #require(made.status == 0, "openssl could not make a certificate")
    let server = try CollectorProcess(
      db: "collector.sqlite", in: folder.url, options: ["--tls-certificate", "cert.pem", "--tls-key", "key.pem"])
    #expect(server.url.hasPrefix("https://127.0.0.1:"), "\(server.url)")
    let url = server.url
    let health = try shell("curl -s --max-time 10 --cacert cert.pem \(url)/healthz")
    #expect(health.status == 0 && health.output.contains(#""status":"serving""#), "\(health)")
    let limits = try shell(
      "curl -s --max-time 10 --cacert cert.pem -H 'Authorization: Bearer \(reader)' \(url)/v1/limits")
    #expect(limits.output.contains(#""requestLines":5000"#), "\(limits)")
    // Without the certificate the client refuses it; in plain HTTP the server refuses the client.
    #expect(try shell("curl -s --max-time 10 \(url)/healthz").status != 0)
    let plain = url.replacingOccurrences(of: "https://", with: "http://")
    #expect(!(try shell("curl -s --max-time 10 \(plain)/healthz").output.contains("serving")))
    #expect(server.stop(SIGTERM) == 0)
    // A file that is not a certificate is said so, and nothing is served.
    try "not a certificate".write(toFile: folder.path("bad.pem"), atomically: true, encoding: .utf8)
    let refused = try navstore([
      "serve", "--db", "collector.sqlite", "--listen", "127.0.0.1:0", "--tls-certificate", "bad.pem", "--tls-key",
      "key.pem",
    ])
    #expect(
      refused.status != 0 && refused.stderr.contains("'bad.pem' is not a PEM certificate chain"), "\(refused.stderr)")
  }

  static let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
  static let nginxRequired = ProcessInfo.processInfo.environment["NAVSTORE_REQUIRE_NGINX"] == "1"

  @Test(.enabled(if: nginx != nil || nginxRequired, "nginx is not installed"))
  func behindNginxTheLogNamesTheClientAndNotWhatAClientClaims() throws {
    let nginx = try #require(Self.nginx, "NAVSTORE_REQUIRE_NGINX=1, but nginx is not installed (apt-get install nginx)")
    let reader = try token("read")
    let log = folder.path("serve.log")
    // The collector trusts the proxy at 127.0.0.2 only; clients come from other loopback addresses.
    let server = try CollectorProcess(
      db: "collector.sqlite", in: folder.url, options: ["--trusted-proxy", "127.0.0.2", "--log-format", "json"],
      log: log)
    try #require(server.url.hasPrefix("http://127.0.0.1:"))
    let proxyPort = try Self.freePort(on: "127.0.0.2")
    let prefix = folder.path("nginx")
    try FileManager.default.createDirectory(atPath: prefix + "/tmp", withIntermediateDirectories: true)
    let configuration = """
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
        server {
          listen 127.0.0.2:\(proxyPort);
          location / {
            proxy_pass http://127.0.0.1:\(server.port);
            proxy_bind 127.0.0.2;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_request_buffering off;
            proxy_buffering off;
          }
        }
      }
      """
    try configuration.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
    let proxy = Process()
    proxy.executableURL = URL(fileURLWithPath: nginx)
    proxy.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf"]
    proxy.standardOutput = FileHandle.nullDevice
    proxy.standardError = FileHandle.nullDevice
    try proxy.run()
    defer {
      // SIGKILL: a child of the test process may start with SIGTERM blocked, and nginx in
      // single-process mode does not unblock it.
      kill(proxy.processIdentifier, SIGKILL)
      proxy.waitUntilExit()
    }
    // Through the proxy, from 127.0.0.5, claiming to be 203.0.113.7: the proxy's own word is
    // taken (it appended 127.0.0.5), the client's claim is not.
    var answered: Int?
    for _ in 0..<50 where answered == nil {
      if let connection = try? RawConnection(host: "127.0.0.2", port: proxyPort, from: "127.0.0.5") {
        connection.send(
          "GET /v1/limits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(reader)\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n"
        )
        answered = connection.answer(within: 5).status
      } else {
        Thread.sleep(forTimeInterval: 0.1)  // nginx is still starting
      }
    }
    #expect(answered == 200)
    // Straight to the collector from 127.0.0.9, claiming another address: not a trusted proxy,
    // so the connection's own address is the client.
    let direct = try RawConnection(port: server.port, from: "127.0.0.9")
    direct.send(
      "GET /v1/limits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(reader)\r\nX-Forwarded-For: 198.51.100.1\r\n\r\n")
    #expect(direct.answer(within: 5).status == 200)
    #expect(server.stop(SIGTERM) == 0)
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    let clients = try lines.compactMap { line -> String? in
      let value = try WireFormat.decode(JSONValue.self, from: Array(line.utf8))
      guard value.objectValue?["route"] == .string("/v1/limits"),
        case .string(let client)? = value.objectValue?["client"]
      else { return nil }
      return client
    }
    #expect(clients == ["127.0.0.5", "127.0.0.9"], "\(lines)")
  }

  /// A port nothing listens on at `host` now.
  static func freePort(on host: String) throws -> UInt16 {
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socketFD) }
    guard RawConnection.call(bind, socketFD, host: host, port: 0) == 0 else { throw POSIXError(.EADDRINUSE) }
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}
