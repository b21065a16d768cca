import NavJSON

/// Who and what a session ran on: the app's version, the system, the device, where the user is,
/// and an id the app chooses. Written once, into the session's `start`, and hash-chained with it.
///
/// A support engineer finds a user's session by these ("version 2.3, an iPhone, around 3 pm in
/// Paris"); analysts split by them. Every field is optional text the app fills as it likes
/// (`Bundle.main` and `ProcessInfo` on Apple platforms); `app` holds the app's own keys, any
/// JSON. `userID` is opaque: an install id, or a hash of the account id, never a name or an
/// email; exports can leave it out.
public struct SessionContext: Hashable, Sendable {
  /// The app's version, as it shows it (`CFBundleShortVersionString`): `2.3.1`.
  public var appVersion: String?
  /// The app's build (`CFBundleVersion`): `412`.
  public var appBuild: String?
  /// The operating system's name: `iOS`, `macOS`, `Android`.
  public var osName: String?
  /// The operating system's version: `17.5.1`.
  public var osVersion: String?
  /// The device's model identifier: `iPhone15,2`.
  public var deviceModel: String?
  /// The user's locale, as a BCP 47 tag or the platform's identifier: `fr_FR`.
  public var locale: String?
  /// The device's time zone, an IANA name: `Europe/Paris`.
  public var timeZone: String?
  /// An opaque id of the user or the install, chosen by the app.
  public var userID: String?
  /// The app's own keys, each any JSON value.
  public var app: [String: JSONValue]
  /// The public half of the key the device that recorded the session signs its uploads with:
  /// a collector takes the session's lines only from requests it signed. Set by the recorder
  /// from the store's own key, not by the app, which never needs it.
  package var deviceKey: DeviceKey?
  /// The host profile the app plays its steps for (the model's `host`): what `navstore replay`
  /// and a report plan under unless told otherwise. Set by the recorder from the model it
  /// records, not by the app.
  package var host: HostProfile?

  /// A context; leave out what the app does not know or does not want kept.
  public init(
    appVersion: String? = nil, appBuild: String? = nil, osName: String? = nil, osVersion: String? = nil,
    deviceModel: String? = nil, locale: String? = nil, timeZone: String? = nil, userID: String? = nil,
    app: [String: JSONValue] = [:]
  ) {
    self.appVersion = appVersion
    self.appBuild = appBuild
    self.osName = osName
    self.osVersion = osVersion
    self.deviceModel = deviceModel
    self.locale = locale
    self.timeZone = timeZone
    self.userID = userID
    self.app = app
    deviceKey = nil
    host = nil
  }

  /// The context with no user id: what an export that leaves out personal data shows.
  package var withoutUserID: SessionContext {
    var copy = self
    copy.userID = nil
    return copy
  }

  /// Whether no field is set: such a context is not written at all.
  package var isEmpty: Bool { self == SessionContext() }

  /// The context the wire format can hold: empty text fields left out, longer ones cut at 256
  /// Unicode scalars. What the recorder writes, so that an empty version string from the system
  /// never keeps a session from being recorded.
  package var writable: SessionContext {
    var copy = self
    for field in SessionContextField.allCases where field != .app {
      guard let text = copy[text: field] else { continue }
      copy[text: field] = WireScalars.writableText(text)
    }
    return copy
  }
}

/// The members of a context object; the text fields are 1 to `WireScalars.maximumTextLength`
/// Unicode scalars.
enum SessionContextField: String, WireField {
  case app, appBuild, appVersion, deviceKey, deviceModel, host, locale, osName, osVersion, timeZone, userId
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

extension SessionContext {
  /// The text fields by their wire names.
  fileprivate subscript(text field: SessionContextField) -> String? {
    get {
      switch field {
      case .appVersion: appVersion
      case .appBuild: appBuild
      case .osName: osName
      case .osVersion: osVersion
      case .deviceModel: deviceModel
      case .locale: locale
      case .timeZone: timeZone
      case .userId: userID
      case .deviceKey: deviceKey?.text
      case .host: host?.rawValue
      case .app: nil
      }
    }
    set {
      switch field {
      case .appVersion: appVersion = newValue
      case .appBuild: appBuild = newValue
      case .osName: osName = newValue
      case .osVersion: osVersion = newValue
      case .deviceModel: deviceModel = newValue
      case .locale: locale = newValue
      case .timeZone: timeZone = newValue
      case .userId: userID = newValue
      case .deviceKey: deviceKey = newValue.flatMap(DeviceKey.init(text:))
      case .host: host = newValue.flatMap(HostProfile.init(rawValue:))
      case .app: break
      }
    }
  }
}

extension SessionContext: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> SessionContext {
    let object = try WireObjectReader<SessionContextField>(tree)
    var trees: [(SessionContextField, JSONValue)] = []
    let present = object.sort { field, value in trees.append((field, value)) }
    try object.refuseUnknown(allowed: SessionContextField.allCases, present: present, in: "context")
    // One encoding per event: an empty context is written by leaving it out.
    guard present > 0 else { throw WireFailure("context must not be empty: leave it out") }
    var context = SessionContext()
    // In the canonical order, so that the first bad field named is the same whatever the input's.
    trees.sort { $0.0.rawValue.utf16.lexicographicallyPrecedes($1.0.rawValue.utf16) }
    for (field, value) in trees {
      if field == .app {
        context.app = try object.required(value, .app) { value throws(WireFailure) in
          guard case .object(let members) = value else { throw .mismatch(expected: "an object", found: value) }
          guard !members.isEmpty else { throw WireFailure("app must not be empty: leave it out") }
          return members
        }
      } else {
        context[text: field] = try object.required(value, field) { value throws(WireFailure) in
          let text = try WireScalars.string(value)
          try Self.check(text, field)
          return text
        }
      }
    }
    return context
  }

  private static func check(_ text: String, _ field: SessionContextField) throws(WireFailure) {
    try WireScalars.checkText(text, named: field.rawValue)
    if field == .deviceKey, DeviceKey(text: text) == nil {
      throw WireFailure("deviceKey must be an Ed25519 public key: its 32 bytes in 43 characters of unpadded base64url")
    }
    if field == .host, HostProfile(rawValue: text) == nil {
      throw WireFailure("host must be one of: \(HostProfile.allCases.map(\.rawValue).joined(separator: ", "))")
    }
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    guard !isEmpty else { throw WireFailure("context must not be empty: leave it out") }
    try writer.object(SessionContextField.self) { writer, field throws(WireFailure) in
      if field == .app {
        guard !app.isEmpty else { return }
        writer.json(.object(app))
      } else if let text = self[text: field] {
        try Self.check(text, field)
        writer.string(text)
      }
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}
