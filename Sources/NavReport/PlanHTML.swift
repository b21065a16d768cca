import NavCore

/// The restore plan of a state: the steps a host plays from the state's launch state (every
/// stack cut back to its root, tabs kept) to the state, with their times, under one host
/// profile. Each step shows the screen on top after it and the path to it.
enum PlanHTML {
  static func render(
    _ state: AnyCoordinator, host: HostProfile, delayMilliseconds: Int = StepPlan<JSONValue>.defaultDelayMilliseconds
  ) -> Markup {
    let plan: StepPlan<JSONValue>
    do throws(PlanError) {
      plan = try AnyCoordinator.plan(from: state.launchState, to: state, host: host)
    } catch {
      return "<p class=\"plan-error\">No plan: \(error.description)</p>"
    }
    let steps = plan.scheduled(delayMilliseconds: delayMilliseconds)
    let total = TimelineSVG.duration(Int64(plan.duration(delayMilliseconds: delayMilliseconds)))
    // The times are marked for the page's script, which times them again for another delay.
    var html: Markup =
      "<p class=\"plan-summary\">\(steps.count) step\(steps.count == 1 ? "" : "s") under \(host.rawValue), "
      + "<span class=\"plan-total\">\(total)</span> in all, <span class=\"plan-delay\">\(delayMilliseconds)</span> ms apart</p>"
      + "<ol class=\"plan\" start=\"0\">"
    for step in steps {
      let visible = step.state.visibleScreen
      html +=
        "<li data-step=\"\(step.step)\"><span class=\"time\">\(step.atMs) ms</span> <span class=\"screen\">\(visible?.name ?? "?")</span>"
        + " <span class=\"path\">\(visible?.path ?? "")</span></li>"
    }
    return html + "</ol>"
  }
}
