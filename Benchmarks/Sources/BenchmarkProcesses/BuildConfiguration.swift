/// Which build is measuring: a debug build's times say nothing about NavStore's speed.
public enum BuildConfiguration {
  /// A line to print before any figure when this is a debug build (CI's quick runs, which check
  /// that every scenario runs and its checks hold); nil for a release build.
  public static var debugNotice: String? {
    #if DEBUG
    "a debug build: its figures mean nothing, only its checks do (measure with swift run -c release)"
    #else
    nil
    #endif
  }
}
