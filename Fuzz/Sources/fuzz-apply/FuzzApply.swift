import FuzzSupport
@_spi(Internals) import NavCore
import NavJSON

/// An operation applied to a state, both from the input (`{"state": ..., "op": ...}`): a
/// refusal leaves the state as it was, an acceptance leaves it well-formed, and applying in
/// place gives what applying to a copy gives.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzApply(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = input(data, size)
  guard let document = try? JSONParser.parse(bytes), case .object(let members) = document,
    let stateValue = members["state"], let operationValue = members["op"],
    let state = try? WireFormat.decode(AnyCoordinator.self, from: stateValue),
    let operation = try? WireFormat.decode(AnyOperation.self, from: operationValue)
  else { return 0 }
  var inPlace: AnyCoordinator? = state
  do {
    let applied = try state.applying(operation)
    if let problem = applied.structureError() { violated("an accepted operation left the tree malformed: \(problem)") }
    guard let placed = try? operation.apply(toSession: &inPlace), placed == applied, inPlace == applied else {
      violated("applying in place differs from applying to a copy")
    }
  } catch {
    var copy = state
    guard (try? copy.apply(operation)) == nil, copy == state else { violated("a refused operation changed the state") }
  }
  return 0
}
