// An app that imports NavCore sees `JSONValue`, the untyped screen of every tool that does not
// know the app's types, without importing the JSON layer itself.
@_exported import NavJSON
