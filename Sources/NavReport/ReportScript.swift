/// The page's script, inline: choosing an event (a click, Enter or Space on its row, the
/// slider, or `#seq=N` in the link) shows the state after it and its restore plan under the
/// chosen host profile. The
/// states and plans are in the page as templates, so nothing is fetched. Without the script the
/// page still shows the opening state and plan, and the whole table.
enum ReportScript {
  static let javascript = """
    (function () {
      "use strict";
      var rows = Array.prototype.slice.call(document.querySelectorAll("#events tbody tr"));
      var bySeq = {};
      rows.forEach(function (row) { bySeq[row.getAttribute("data-seq")] = row; });
      var slider = document.getElementById("seq");
      var host = document.getElementById("host");
      var statePanel = document.getElementById("state");
      var planPanel = document.getElementById("plan");
      var caption = document.getElementById("state-caption");
      var current = null;
      function fill(panel, id, fallback) {
        var template = document.getElementById(id);
        panel.textContent = "";
        if (template) { panel.appendChild(template.content.cloneNode(true)); }
        else { var p = document.createElement("p"); p.className = "note"; p.textContent = fallback; panel.appendChild(p); }
      }
      function showPlan() {
        if (!current) { return; }
        fill(planPanel, "plan-" + current.getAttribute("data-state") + "-" + host.value,
          "This report has restore plans for the chosen seq only; a report made at seq " + current.getAttribute("data-seq") + " has this one.");
      }
      function show(seq) {
        var row = bySeq[String(seq)];
        if (!row) { return; }
        if (current) { current.classList.remove("chosen"); current.removeAttribute("aria-current"); }
        current = row;
        row.classList.add("chosen");
        row.setAttribute("aria-current", "true");
        fill(statePanel, "state-" + row.getAttribute("data-state"), "");
        statePanel.setAttribute("data-seq", String(seq));
        caption.textContent = "After seq " + seq + " (" + row.getAttribute("data-time") + ")";
        slider.value = String(seq);
        showPlan();
      }
      slider.addEventListener("input", function () { show(slider.value); });
      host.addEventListener("change", showPlan);
      rows.forEach(function (row) {
        row.addEventListener("click", function () { show(row.getAttribute("data-seq")); });
        row.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); show(row.getAttribute("data-seq")); }
        });
      });
      // A link may choose the event: page.html#seq=5.
      var chosen = /(?:^#|&)seq=(\\d+)/.exec(window.location.hash);
      var seq = chosen ? String(parseInt(chosen[1], 10)) : null;
      show(seq && bySeq[seq] ? seq : document.body.getAttribute("data-focus"));
      document.documentElement.setAttribute("data-script", "ran");
    })();
    """
}
