import FuzzSupport
@_spi(Internals) import NavCore
import NavJSON

/// The step planner between two states from the input (`{"from": ..., "to": ...}`), under
/// every host profile: the plan ends at the target, its first step changes contents only, and
/// every later step is legal by the independent check.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlanner(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = input(data, size)
  guard let document = try? JSONParser.parse(bytes), case .object(let members) = document,
    let fromValue = members["from"], let toValue = members["to"],
    let start = try? WireFormat.decode(AnyCoordinator.self, from: fromValue),
    let target = try? WireFormat.decode(AnyCoordinator.self, from: toValue)
  else { return 0 }
  for host in HostProfile.allCases {
    guard let plan = try? AnyCoordinator.plan(from: start, to: target, host: host) else { continue }
    guard plan.steps.last == target else { violated("\(host): the plan does not end at the target") }
    if let first = plan.steps.first, !AnyCoordinator.differsInContentsOnly(start, first) {
      violated("\(host): step 0 changes structure")
    }
    for (before, after) in zip(plan.steps, plan.steps.dropFirst())
    where !AnyCoordinator.isLegalTransition(from: before, to: after, host: host) {
      violated("\(host): a step is not a legal transition")
    }
  }
  return 0
}
