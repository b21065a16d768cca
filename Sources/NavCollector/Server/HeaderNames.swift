import HTTPTypes
import NavContract
import NavPersistence

extension HTTPField.Name {
  // The names of the headers the collector reads or writes beyond HTTP's own. Each is a fixed
  // token that HTTP Types accepts, written here once; no request's input reaches these
  // unwraps, and every test that starts a collector reads them.

  /// `X-Request-Id`: every answer's id, which its log line names.
  static let requestID = HTTPField.Name("X-Request-Id")!
  /// `NavStore-Cursor`: the cursor an export answers to, which the next pull gives as `after`.
  static let navStoreCursor = HTTPField.Name("NavStore-Cursor")!
  /// `X-Forwarded-For`, where a proxy names the address it took the request from.
  static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
  /// `NavStore-Device-Key`: the device an upload names (`UploadSignature`).
  static let deviceKey = HTTPField.Name(UploadSignature.keyHeader)!
  /// `NavStore-Signature`: the device's signature of the upload's body.
  static let deviceSignature = HTTPField.Name(UploadSignature.signatureHeader)!
  /// Where a browser's request comes from (`same-origin`, `cross-site`, ...): the console
  /// refuses a form posted from another site.
  static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
  /// `nosniff`: a console answer is the type it says.
  static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
  /// `same-origin`: a console URL (a session id) is not told to another site.
  static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
  /// `https` when a trusted proxy ended TLS for the client.
  static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
