/// The page's script, inline: choosing an event (a click, Enter or Space on its row, the
/// slider, or `#seq=N` in the link) shows the state after it and its restore plan under the
/// chosen host profile, timed for the delay between steps chosen. The states are in the page as one table of shared nodes
/// (`ReportStates`), which the script draws as the same nested lists `StateTreeHTML` writes,
/// with text set as text (never parsed as HTML); the plans are templates. Nothing is fetched.
/// Without the script the page still shows the opening state and plan, and the whole table.
enum ReportScript {
  static let javascript: Markup = """
    (function () {
      "use strict";
      var rows = Array.prototype.slice.call(document.querySelectorAll("#events tbody tr"));
      var bySeq = {};
      rows.forEach(function (row) { bySeq[row.getAttribute("data-seq")] = row; });
      var slider = document.getElementById("seq");
      var host = document.getElementById("host");
      var statePanel = document.getElementById("state");
      var planPanel = document.getElementById("plan");
      var delay = document.getElementById("delay");
      var caption = document.getElementById("state-caption");
      var current = null;
      var table = JSON.parse(document.getElementById("states").textContent);
      // The opening state, as the page wrote it: shown again for its seq even when the table
      // stopped before it.
      var opening = Array.prototype.slice.call(statePanel.childNodes).map(function (node) { return node.cloneNode(true); });
      var focus = document.body.getAttribute("data-focus");
      function element(tag, className, text) {
        var node = document.createElement(tag);
        if (className) { node.className = className; }
        if (text !== undefined) { node.textContent = text; }
        return node;
      }
      // A coordinator reference: a cell's index (a stack, by its top cell), or -(index + 1) of tabs.
      function coordinator(reference) {
        var item = element("li");
        var list = element("ol");
        if (reference < 0) {
          var tabs = table.tabs[-reference - 1];
          item.appendChild(element("span", "kind", "tabs"));
          tabs[1].forEach(function (tab, index) {
            var selected = index === tabs[0];
            var entry = element("li", selected ? "tab current" : "tab");
            entry.appendChild(element("span", "kind", "tab " + index));
            if (selected) { entry.appendChild(document.createTextNode(" ")); entry.appendChild(element("strong", "selected", "(selected)")); }
            var inner = element("ul");
            inner.appendChild(coordinator(tab));
            entry.appendChild(inner);
            list.appendChild(entry);
          });
        } else {
          item.appendChild(element("span", "kind", "stack"));
          var routes = [];
          for (var cell = reference; cell !== null; cell = table.cells[cell][0]) { routes.push(table.cells[cell][1]); }
          routes.reverse().forEach(function (index) { list.appendChild(route(table.routes[index])); });
        }
        item.appendChild(list);
        return item;
      }
      function route(node) {
        var item = element("li", "route " + (node[1] ? "presented" : "pushed"));
        item.appendChild(element("span", "style", node[0]));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(element("span", "screen", node[2]));
        if (node[3] !== null) { item.appendChild(document.createTextNode(" ")); item.appendChild(element("code", "payload", node[3])); }
        if (node[4] !== null) {
          var hosted = element("ul", "hosted");
          hosted.appendChild(element("li", "caption", "hosts a flow:"));
          hosted.appendChild(coordinator(node[4]));
          item.appendChild(hosted);
        }
        return item;
      }
      function drawState(reference, seq) {
        statePanel.textContent = "";
        if (reference === "" && String(seq) === focus) {
          opening.forEach(function (node) { statePanel.appendChild(node.cloneNode(true)); });
          return;
        }
        if (reference === "") {
          statePanel.appendChild(element("p", "note", "This state is not in the page, which keeps it small; a report made at this seq shows it."));
          return;
        }
        var tree = element("ul", "tree");
        tree.appendChild(coordinator(parseInt(reference, 10)));
        statePanel.appendChild(tree);
      }
      function fill(panel, id, fallback) {
        var template = document.getElementById(id);
        panel.textContent = "";
        if (template) { panel.appendChild(template.content.cloneNode(true)); }
        else { var p = document.createElement("p"); p.className = "note"; p.textContent = fallback; panel.appendChild(p); }
      }
      function showPlan() {
        if (!current) { return; }
        fill(planPanel, "plan-" + current.getAttribute("data-state") + "-" + host.value,
          "This page carries the restore plans of some states only; a report made at seq " + current.getAttribute("data-seq") + " has this one.");
        retime();
      }
      // A span as the page says it: 850 ms, 49.9 s, 11.2 min, 2 h.
      function tenths(value) { var t = Math.round(value * 10); return t % 10 === 0 ? String(t / 10) : (Math.floor(t / 10) + "." + (t % 10)); }
      function duration(ms) {
        if (ms < 1000) { return ms + " ms"; }
        var s = ms / 1000; if (s < 120) { return tenths(s) + " s"; }
        var m = s / 60; if (m < 120) { return tenths(m) + " min"; }
        return tenths(m / 60) + " h";
      }
      // The plan timed for the delay chosen: steps 0 and 1 at once, step k at (k - 1) delays.
      function retime() {
        var ms = parseInt(delay.value, 10);
        if (!(ms >= 0 && ms <= 86400000)) { return; }
        var steps = planPanel.querySelectorAll("li[data-step]");
        var at = function (k) { return k < 2 ? 0 : (k - 1) * ms; };
        steps.forEach(function (item) {
          item.querySelector(".time").textContent = at(parseInt(item.getAttribute("data-step"), 10)) + " ms";
        });
        var total = planPanel.querySelector(".plan-total"), apart = planPanel.querySelector(".plan-delay");
        if (total) { total.textContent = duration(at(steps.length - 1)); }
        if (apart) { apart.textContent = String(ms); }
      }
      function show(seq) {
        var row = bySeq[String(seq)];
        if (!row) { return; }
        if (current) { current.classList.remove("chosen"); current.removeAttribute("aria-current"); }
        current = row;
        row.classList.add("chosen");
        row.setAttribute("aria-current", "true");
        drawState(row.getAttribute("data-state"), seq);
        statePanel.setAttribute("data-seq", String(seq));
        caption.textContent = "After seq " + seq + " (" + row.getAttribute("data-time") + ")";
        slider.value = String(seq);
        showPlan();
      }
      slider.addEventListener("input", function () { show(slider.value); });
      host.addEventListener("change", showPlan);
      delay.addEventListener("input", retime);
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
