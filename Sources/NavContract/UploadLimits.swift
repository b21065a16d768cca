/// What an upload may hold, counted after decompression: the contract's limits, which
/// `navstore serve` may change and `GET /v1/limits` reports. An uploader sizes its requests to
/// them.
package struct UploadLimits: Hashable, Sendable, Codable {
  /// The longest line, in bytes.
  package var lineBytes: Int
  /// The most lines in one request.
  package var requestLines: Int
  /// The most bytes in one request.
  package var requestBytes: Int

  /// The contract's defaults: 256 KiB a line, 5,000 lines and 8 MiB a request.
  package static let contract = UploadLimits(lineBytes: 256 * 1024, requestLines: 5_000, requestBytes: 8 * 1024 * 1024)

  /// Limits.
  package init(lineBytes: Int, requestLines: Int, requestBytes: Int) {
    self.lineBytes = lineBytes
    self.requestLines = requestLines
    self.requestBytes = requestBytes
  }
}
