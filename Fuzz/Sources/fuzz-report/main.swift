import FuzzSupport

// libFuzzer's driver, run from our own main (SwiftPM names an executable's entry point itself).
runFuzzer(fuzzReport)
