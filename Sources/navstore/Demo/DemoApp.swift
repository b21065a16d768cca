import NavCore

/// The sessions of a small sample app: a home screen, a numbers list presented in a sheet with
/// navigation, number details pushed several deep, a nested onboarding flow, a tabs section,
/// user back-swipes and swipe-dismissals, and deep links. Deterministic: the same every run from
/// the same start.
struct DemoApp {
  /// 2026-11-21T09:00:00.000Z: the start unless another is asked for.
  static let defaultStart = Timestamp(millisecondsSince1970: 1_795_251_600_000)

  /// When the first session starts; the others follow within two hours.
  var firstSessionStart = DemoApp.defaultStart

  func sessions() throws -> [DemoSessionBuilder] {
    var sessions = [try numbers(), try onboarding(), try tabs()]
    var random = SplitMix(seed: 42)
    for index in 0..<5 {
      sessions.append(try browsing(index: index, using: &random))
    }
    let killed = try killed()
    sessions += [killed, try relaunch(after: killed)]
    return sessions
  }

  private func start(_ minutes: Int) -> Timestamp {
    Timestamp(millisecondsSince1970: firstSessionStart.millisecondsSince1970 + Int64(minutes) * 60_000)
  }

  private var homeStack: AnyCoordinator { .stack([.root(DemoScreen.home, withNavigation: true)]) }

  /// What a demo session ran on: two versions of the app, on phones and a tablet, in three
  /// places.
  private func context(
    _ version: String, build: String, os: (String, String), device: String, locale: String, timeZone: String,
    user: String
  ) -> SessionContext {
    SessionContext(
      appVersion: version, appBuild: build, osName: os.0, osVersion: os.1, deviceModel: device, locale: locale,
      timeZone: timeZone, userID: user)
  }

  /// Home, the numbers sheet, details several deep, a back-swipe, a swipe-dismiss, a deep link.
  func numbers() throws -> DemoSessionBuilder {
    var session = try DemoSessionBuilder("demo-numbers", startingAt: start(0))
    let device = context(
      "2.3.1", build: "412", os: ("iOS", "17.5.1"), device: "iPhone15,2", locale: "fr_FR", timeZone: "Europe/Paris",
      user: "install-7f3a")
    try session.add(.start(homeStack, context: device), after: 0, cause: ["appLaunched": [:]])
    try session.add(
      .presentSheet(DemoScreen.numbersList, withNavigation: true), after: 3.2, cause: ["numbersButtonTapped": [:]])
    for (number, pause) in [(3, 2.5), (7, 4.1), (12, 3.3)] {
      try session.add(
        .push(DemoScreen.numberDetail(number)), after: pause, cause: ["numberTapped": ["_0": .number(Double(number))]])
    }
    // A phone call: two minutes away, which is no time on screen.
    try session.add(.background, after: 3.0)
    try session.add(.foreground, after: 120.0)
    try session.add(.pop(), after: 2.0, origin: .user)  // edge swipe back to 7
    try session.add(.push(DemoScreen.numberDetail(21)), after: 2.7, cause: ["numberTapped": ["_0": 21]])
    try session.add(.dismiss(), after: 6.4, origin: .user)  // swipe down on the sheet
    try session.add(
      .setRoutes([
        .root(DemoScreen.home, withNavigation: true), .sheet(DemoScreen.numbersList, withNavigation: true),
        .push(DemoScreen.numberDetail(42)),
      ]), after: 12.0, cause: ["deepLink": ["_0": "demo://numbers/42"]])
    // The user reads number 42 for a while, then leaves the app there.
    try session.add(.background, after: 18.5)
    return session
  }

  /// A nested onboarding coordinator presented as a cover, with its own stack.
  func onboarding() throws -> DemoSessionBuilder {
    var session = try DemoSessionBuilder("demo-onboarding", startingAt: start(7))
    let flow: CoordinatorPath = [.route(1)]
    let device = context(
      "2.3.1", build: "412", os: ("iOS", "18.1"), device: "iPhone16,1", locale: "en_US", timeZone: "America/New_York",
      user: "install-c019")
    try session.add(.start(homeStack, context: device), after: 0, cause: ["appLaunched": ["firstLaunch": true]])
    try session.add(
      .presentCover(DemoScreen.onboarding, child: .stack([.root(DemoScreen.welcome, withNavigation: true)])), after: 0.4
    )
    try session.add(.push(DemoScreen.permissions, at: flow), after: 6.0, cause: ["continueTapped": [:]])
    try session.add(.pop(at: flow), after: 3.5, origin: .user)
    try session.add(.push(DemoScreen.permissions, at: flow), after: 2.0, cause: ["continueTapped": [:]])
    try session.add(
      .updateScreen(index: 1, screen: ["permissions": ["notifications": true]], at: flow), after: 4.2,
      cause: ["notificationsAllowed": ["_0": true]])
    try session.add(.push(DemoScreen.allSet, at: flow), after: 1.5, cause: ["continueTapped": [:]])
    try session.add(.dismiss(), after: 2.8, cause: ["onboardingFinished": [:]])
    try session.add(.push(DemoScreen.numbersList), after: 3.0, cause: ["numbersButtonTapped": [:]])
    try session.add(.end(reason: "signedOut"), after: 7.5, cause: ["signOutTapped": [:]])
    return session
  }

  /// A tabs section: a post in the feed, a search in another tab, a settings sheet.
  func tabs() throws -> DemoSessionBuilder {
    var session = try DemoSessionBuilder("demo-tabs", startingAt: start(15))
    let tabs: CoordinatorPath = [.route(0)]
    let feed: CoordinatorPath = [.route(0), .tab(0)]
    let search: CoordinatorPath = [.route(0), .tab(1)]
    let profile: CoordinatorPath = [.route(0), .tab(2)]
    let sections: AnyCoordinator = .tabs(
      [
        .stack([.root(DemoScreen.feed, withNavigation: true)]),
        .stack([.root(DemoScreen.search(""), withNavigation: true)]),
        .stack([.root(DemoScreen.profile, withNavigation: true)]),
      ], selected: 0)
    let device = context(
      "2.2.0", build: "388", os: ("iPadOS", "17.4"), device: "iPad14,1", locale: "de_DE", timeZone: "Europe/Berlin",
      user: "install-91bd")
    try session.add(
      .start(.stack([.root(DemoScreen.mainTabs, child: sections)]), context: device), after: 0,
      cause: ["appLaunched": [:]])
    try session.add(.push(DemoScreen.post(1_207), at: feed), after: 4.0, cause: ["postTapped": ["_0": 1207]])
    try session.add(.selectTab(1, at: tabs), after: 9.5, origin: .user)
    try session.add(
      .updateScreen(index: 0, screen: DemoScreen.search("sqlite"), at: search), after: 5.0,
      cause: ["queryChanged": ["_0": "sqlite"]])
    try session.add(
      .push(DemoScreen.result("SQLite in Swift"), at: search), after: 3.1, cause: ["resultTapped": ["_0": 0]])
    try session.add(.selectTab(2, at: tabs), after: 7.0, origin: .user)
    try session.add(.presentSheet(DemoScreen.settings, at: profile), after: 2.2, cause: ["settingsTapped": [:]])
    try session.add(.dismiss(at: profile), after: 4.4, origin: .user)
    try session.add(.selectTab(0, at: tabs), after: 1.9, origin: .user)
    try session.add(.pop(at: feed), after: 2.5, origin: .user)
    // The user leaves; ten minutes later a notification brings them back, deep linked to the
    // search tab, on a result. One link, two operations.
    try session.add(.background, after: 20.0)
    try session.add(.foreground, after: 600.0)
    let link: JSONValue = ["deepLink": "demo://search/swift"]
    try session.add(.selectTab(1, at: tabs), after: 0.3, cause: link)
    try session.add(.push(DemoScreen.result("Swift on Linux"), at: search), after: 0, cause: link)
    try session.add(.background, after: 14.0)
    return session
  }

  /// A user who opened the numbers list and left the app there; the system ended the app in
  /// the background.
  func killed() throws -> DemoSessionBuilder {
    var session = try DemoSessionBuilder("demo-killed", startingAt: start(85))
    try session.add(.start(homeStack, context: phone(user: "install-2e44")), after: 0, cause: ["appLaunched": [:]])
    try session.add(
      .presentSheet(DemoScreen.numbersList, withNavigation: true), after: 2.6, cause: ["numbersButtonTapped": [:]])
    try session.add(.background, after: 5.1)
    return session
  }

  /// The same user's next launch, twenty minutes later: it restores the list in its sheet, and
  /// the user opens a number, goes back and closes the sheet. Two sessions, one journey.
  func relaunch(after killed: DemoSessionBuilder) throws -> DemoSessionBuilder {
    var session = try DemoSessionBuilder("demo-killed-relaunch", startingAt: start(105))
    try session.add(
      .start(
        killed.state ?? homeStack, restoredFrom: SessionLink(session: killed.session, seq: killed.events.count),
        context: phone(user: "install-2e44"), launch: LaunchRecord(outcome: .restored, dropped: [])), after: 0,
      cause: ["appLaunched": [:]])
    try session.add(.push(DemoScreen.numberDetail(8)), after: 4.2, cause: ["numberTapped": ["_0": 8]])
    try session.add(.pop(), after: 7.9, origin: .user)  // edge swipe back to the list
    try session.add(.dismiss(), after: 3.3, origin: .user)
    try session.add(.background, after: 6.0)
    return session
  }

  /// The phone of `killed` and `relaunch`.
  private func phone(user: String) -> SessionContext {
    context(
      "2.3.1", build: "412", os: ("iOS", "18.1"), device: "iPhone16,1", locale: "en_GB", timeZone: "Europe/London",
      user: user)
  }

  /// Shorter sessions of people browsing numbers, varied by a seeded generator.
  func browsing(index: Int, using random: inout SplitMix) throws -> DemoSessionBuilder {
    var session = try DemoSessionBuilder("demo-browse-\(index + 1)", startingAt: start(30 + index * 11))
    let device = context(
      index.isMultiple(of: 2) ? "2.3.1" : "2.3.0", build: index.isMultiple(of: 2) ? "412" : "405",
      os: ("iOS", index < 3 ? "17.5.1" : "18.1"), device: "iPhone15,2", locale: "fr_FR",
      timeZone: "Europe/Paris", user: "install-\(1_000 + index)")
    try session.add(.start(homeStack, context: device), after: 0, cause: ["appLaunched": [:]])
    try session.add(
      .presentSheet(DemoScreen.numbersList, withNavigation: true), after: random.seconds(1...6),
      cause: ["numbersButtonTapped": [:]])
    var depth = 0
    for _ in 0..<random.count(3...9) {
      if depth > 0, random.count(0...2) == 0 {
        try session.add(.pop(), after: random.seconds(1...8), origin: .user)
        depth -= 1
      } else {
        let number = random.count(1...99)
        try session.add(
          .push(DemoScreen.numberDetail(number)), after: random.seconds(1...8),
          cause: ["numberTapped": ["_0": .number(Double(number))]])
        depth += 1
      }
    }
    try session.add(.dismiss(), after: random.seconds(2...10), origin: random.count(0...1) == 0 ? .user : .app)
    // Most leave the app on the home screen; a third were still recording when the store was
    // copied, so their last view is open.
    // (A fixed pause: another draw from `random` would change every later session.)
    if !index.isMultiple(of: 3) { try session.add(.background, after: Double(5 + 7 * index)) }
    return session
  }
}

/// A small seeded generator (SplitMix64), so the demo is the same on every machine.
struct SplitMix {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func count(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func seconds(_ range: ClosedRange<Double>) -> Double {
    let unit = Double(next() % 10_000) / 10_000
    return ((range.lowerBound + unit * (range.upperBound - range.lowerBound)) * 10).rounded() / 10
  }
}
