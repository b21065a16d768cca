import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to loopback driven byte by byte, for clients no HTTP library will play: one
/// that sends a byte at a time, says nothing, or stops reading. Used by one thread at a time
/// (`@unchecked`: a socket descriptor, handed between threads, never shared).
final class RawConnection: @unchecked Sendable {
  private let socketFD: Int32

  /// Connects to `host`:`port` (an IPv4 address), from the address `source` when given (any
  /// of 127.0.0.0/8 on loopback); `receiveBuffer` shrinks the socket's receive buffer first (a
  /// client that stops reading then fills it soon).
  init(host: String = "127.0.0.1", port: UInt16, receiveBuffer: Int32? = nil, from source: String? = nil) throws {
    socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw POSIXError(.EIO) }
    if var size = receiveBuffer {
      setsockopt(socketFD, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    if let source, Self.call(bind, socketFD, host: source, port: 0) != 0 {
      close(socketFD)
      throw POSIXError(.EADDRNOTAVAIL)
    }
    guard Self.call(connect, socketFD, host: host, port: port) == 0 else {
      close(socketFD)
      throw POSIXError(.ECONNREFUSED)
    }
  }

  /// `operation` (bind, connect) of `socketFD` with the IPv4 address `host`:`port`; its result.
  static func call(
    _ operation: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32, _ socketFD: Int32, host: String, port: UInt16
  ) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr(host)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        operation(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  deinit { close(socketFD) }

  /// Sends `text`; `false` once the server has closed the connection.
  @discardableResult
  func send(_ text: String) -> Bool { send(bytes: Array(text.utf8)) }

  /// Sends `bytes`; `false` once the server has closed the connection.
  @discardableResult
  func send(bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
  }

  /// Whether the connection is open with nothing from the server yet: looked at without waiting
  /// and without reading, so a later `answer(within:)` still gets every byte.
  var isAwaitingAnswer: Bool {
    var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
    return poll(&poller, 1, 0) == 0
  }

  /// One whole answer, read until its `Content-Length` is in, the server closes, or `seconds`
  /// pass: its status (`nil` when none came in time), head and body as text.
  func answer(within seconds: Double) -> (status: Int?, head: String, body: String, closed: Bool) {
    var data = Data()
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var closed = false
    func parsed() -> (head: String, body: Data)? {
      guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
      return (String(decoding: data[..<end.lowerBound], as: UTF8.self), data[end.upperBound...])
    }
    while Date() < deadline {
      if let (head, body) = parsed(), let length = Self.contentLength(head), body.count >= length { break }
      var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
      let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
      guard poll(&poller, 1, remaining) > 0 else { continue }
      let count = recv(socketFD, &buffer, buffer.count, 0)
      if count <= 0 {
        closed = true
        break
      }
      data.append(contentsOf: buffer[0..<count])
    }
    guard let (head, body) = parsed() else { return (nil, String(decoding: data, as: UTF8.self), "", closed) }
    let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    return (status, head, String(decoding: body, as: UTF8.self), closed)
  }

  private static func contentLength(_ head: String) -> Int? {
    for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
      return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }

  /// What arrives within `seconds`: the bytes, and whether the server closed the connection.
  func receive(for seconds: Double) -> (data: Data, closed: Bool) {
    var data = Data()
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while Date() < deadline {
      var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
      let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
      guard poll(&poller, 1, remaining) > 0 else { continue }
      let count = recv(socketFD, &buffer, buffer.count, 0)
      if count <= 0 { return (data, true) }
      data.append(contentsOf: buffer[0..<count])
    }
    return (data, false)
  }

  /// Up to `limit` bytes that arrive within `seconds` (fewer when the wait ends first, or the
  /// server closes the connection).
  func receive(upTo limit: Int, within seconds: Double) -> Data {
    var data = Data()
    let deadline = Date().addingTimeInterval(seconds)
    var buffer = [UInt8](repeating: 0, count: limit)
    while data.count < limit {
      var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
      let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
      guard poll(&poller, 1, remaining) > 0 else { break }
      let count = recv(socketFD, &buffer, limit - data.count, 0)
      if count <= 0 { break }
      data.append(contentsOf: buffer[0..<count])
    }
    return data
  }
}
