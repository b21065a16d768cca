import FuzzSupport

// libFuzzer's driver, run from our own main (SwiftPM names an executable's entry point itself);
// without the Fuzzing trait, the inputs named are replayed.
// A closure, not the function itself: the C name the function declares is then defined once,
// in its own file (a reference to it here would define it again in a debug build).
runFuzzer { data, size in fuzzUpload(data, size) }
