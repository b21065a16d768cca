import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP connection to loopback driven byte by byte, for clients no HTTP library will play: one
/// that sends a byte at a time, says nothing, or stops reading.
final class RawConnection {
  private let socketFD: Int32

  /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer first (a
  /// client that stops reading then fills it soon).
  init(port: UInt16, receiveBuffer: Int32? = nil) throws {
    socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw POSIXError(.EIO) }
    if var size = receiveBuffer {
      setsockopt(socketFD, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socketFD)
      throw POSIXError(.ECONNREFUSED)
    }
  }

  deinit { close(socketFD) }

  /// Sends `text`; `false` once the server has closed the connection.
  @discardableResult
  func send(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
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
}
