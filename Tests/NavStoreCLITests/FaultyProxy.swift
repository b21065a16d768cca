import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on loopback in front of a collector, breaking exchanges the way a bad network
/// does: each request (the bytes a client sends after an answer, on a connection kept alive or
/// a new one) gets the fault `faults` names for its number, from 0. Threads and blocking
/// sockets: it is a test's stand-in for a mobile network, not a server.
final class FaultyProxy: @unchecked Sendable {
  /// What happens to one request.
  enum Fault: Sendable, Equatable {
    /// It goes through, and so does its answer.
    case none
    /// The connection is dropped once `bytes` of the request have gone through: mid-body.
    case cutRequest(afterBytes: Int)
    /// The request goes through; its answer is held for `seconds` (past the client's timeout)
    /// before it is passed on, if the client still listens.
    case holdAnswer(seconds: Double)
  }

  /// The port clients connect to.
  let port: UInt16
  private let listener: Int32
  private let requests: RequestFaults
  private let lock = NSLock()
  private var stopped = false

  /// A proxy to 127.0.0.1:`upstream`, with `faults` deciding each request's fate.
  init(upstream: UInt16, faults: @escaping @Sendable (Int) -> Fault) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = Self.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
    let requests = RequestFaults(faults)
    self.requests = requests
    // The accepting thread holds the socket and the faults, never the proxy, so that the
    // proxy's deinit can stop it.
    Thread.detachNewThread {
      while true {
        let client = accept(fd, nil, nil)
        if client < 0 {
          if errno == EINTR || errno == ECONNABORTED { continue }
          return  // the listener was shut down
        }
        let server = Self.connect(to: upstream)
        guard server >= 0 else {
          close(client)
          continue
        }
        Connection(client: client, server: server, requests: requests).run()
      }
    }
  }

  /// The faults applied so far, in the order the requests came.
  var applied: [Fault] { requests.applied }

  /// Stops taking connections (those open carry on until they end). Only the first call acts.
  func stop() {
    let first = lock.withLock {
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  deinit { stop() }

  static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  static func connect(to port: UInt16) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return -1 }
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      return -1
    }
    return fd
  }
}

/// The fault of each request, by its number across the proxy's connections, and those applied.
private final class RequestFaults: @unchecked Sendable {
  private let faults: @Sendable (Int) -> FaultyProxy.Fault
  private let lock = NSLock()
  private var count = 0
  private var done: [FaultyProxy.Fault] = []

  init(_ faults: @escaping @Sendable (Int) -> FaultyProxy.Fault) { self.faults = faults }

  /// The next request's fault.
  func next() -> FaultyProxy.Fault {
    lock.withLock {
      let fault = faults(count)
      count += 1
      done.append(fault)
      return fault
    }
  }

  var applied: [FaultyProxy.Fault] { lock.withLock { done } }
}

/// One client's connection and the proxy's own to the collector: two pumps, one each way,
/// sharing the fault of the request in flight.
private final class Connection: @unchecked Sendable {
  let client: Int32
  let server: Int32
  let requests: RequestFaults
  private let lock = NSLock()
  /// The fault of the request in flight; `nil` between an answer and the next request.
  private var current: FaultyProxy.Fault?
  private var sentOfRequest = 0
  private var pumpsRunning = 2

  init(client: Int32, server: Int32, requests: RequestFaults) {
    self.client = client
    self.server = server
    self.requests = requests
  }

  func run() {
    Thread.detachNewThread { [self] in pump(from: client, to: server, request: true) }
    Thread.detachNewThread { [self] in pump(from: server, to: client, request: false) }
  }

  /// Copies bytes until either side ends or a fault ends the connection; then ends both sides.
  private func pump(from source: Int32, to sink: Int32, request: Bool) {
    var buffer = [UInt8](repeating: 0, count: 16_384)
    loop: while true {
      let count = read(source, &buffer, buffer.count)
      guard count > 0 else { break }
      var chunk = Array(buffer[..<count])
      if request {
        let fault = lock.withLock {
          if current == nil {
            current = requests.next()
            sentOfRequest = 0
          }
          return current ?? .none
        }
        if case .cutRequest(let limit) = fault {
          let room = lock.withLock { max(0, limit - sentOfRequest) }
          if chunk.count >= room {
            _ = Self.write(Array(chunk[..<room]), to: sink)
            break loop
          }
        }
        lock.withLock { sentOfRequest += chunk.count }
      } else {
        let fault = lock.withLock {
          defer { current = nil }  // the answer has begun: what the client sends next is a new request
          return current ?? .none
        }
        if case .holdAnswer(let seconds) = fault { Thread.sleep(forTimeInterval: seconds) }
      }
      guard Self.write(chunk, to: sink) else { break }
      chunk.removeAll()
    }
    shutdown(client, Int32(SHUT_RDWR))
    shutdown(server, Int32(SHUT_RDWR))
    let last = lock.withLock {
      pumpsRunning -= 1
      return pumpsRunning == 0
    }
    if last {
      close(client)
      close(server)
    }
  }

  private static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }
}
