/// The page's CSS, inline: light and dark schemes, a palette that colour-blind readers tell
/// apart (Okabe and Ito's) with text and shape beside every colour, a single column on a phone,
/// and a print layout without the controls.
enum ReportStyle {
  static let css: Markup = """
    :root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #5a5a5a; --line: #d0d0d0;
      --row: #f3f5f8; --chosen: #fff3c4; --ok: #007a4d; --bad: #b3261e;
      --l0: #0072B2; --l1: #E69F00; --l2: #009E73; --l3: #CC79A7; --l4: #56B4E9; --l5: #D55E00; }
    @media (prefers-color-scheme: dark) { :root { --bg: #15171a; --fg: #e8e8e8; --muted: #a8a8a8; --line: #3a3d42;
      --row: #1e2126; --chosen: #4a3f12; --ok: #4cc38a; --bad: #ff8a80; } }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 1rem; background: var(--bg); color: var(--fg);
      font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    h1 { font-size: 1.35rem; margin: 0 0 .5rem; word-break: break-all; }
    h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
    code, .hash, td.cause { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .85em; }
    dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; }
    dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; word-break: break-all; }
    .verified { color: var(--ok); font-weight: 600; } .failed { color: var(--bad); font-weight: 600; }
    .note { color: var(--muted); }
    svg.timeline { width: 100%; height: auto; display: block; }
    svg.timeline text { fill: var(--fg); font-size: 12px; }
    svg.timeline .lane { stroke: var(--line); }
    svg.timeline .bar rect { stroke: var(--bg); stroke-width: 1; }
    svg.timeline.dense .bar rect { stroke: none; }
    svg.timeline .bar.open rect { stroke: var(--fg); stroke-width: 1.5; stroke-dasharray: 4 3; }
    svg.timeline .bar-label { fill: #ffffff; font-size: 11px; pointer-events: none; }
    svg.timeline .away rect { fill: var(--row); stroke: var(--line); stroke-dasharray: 4 3; }
    svg.timeline .away .bar-label { fill: var(--fg); font-style: italic; }
    .layer0 rect { fill: var(--l0); } .layer1 rect { fill: var(--l1); } .layer2 rect { fill: var(--l2); }
    .layer3 rect { fill: var(--l3); } .layer4 rect { fill: var(--l4); } .layer5 rect { fill: var(--l5); }
    svg.timeline .layer1 .bar-label, svg.timeline .layer4 .bar-label { fill: #000000; }
    svg.timeline .mark.user { fill: var(--l5); } svg.timeline .mark.app { fill: var(--muted); }
    .legend { font-size: .85rem; color: var(--muted); margin: .2rem 0 0; }
    .explorer { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
    .panel { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; min-height: 6rem; overflow-x: auto; }
    .controls { display: flex; flex-wrap: wrap; gap: .6rem 1.2rem; align-items: center; margin: .4rem 0; }
    .controls input[type=range] { width: min(32rem, 100%); }
    ul.tree, ul.tree ul, ul.tree ol { list-style: none; padding-left: 1.1rem; margin: .1rem 0; }
    ul.tree { padding-left: 0; }
    .kind { color: var(--muted); font-style: italic; }
    .style { display: inline-block; min-width: 4.5rem; color: var(--muted); }
    .screen { font-weight: 600; }
    .payload { color: var(--muted); }
    .selected { color: var(--ok); }
    .caption { color: var(--muted); font-size: .9em; }
    ol.plan { padding-left: 1.6rem; } ol.plan .time { display: inline-block; min-width: 4.5rem; color: var(--muted); }
    ol.plan .path { color: var(--muted); font-size: .9em; }
    .table-wrap { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; font-size: .9rem; }
    th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    tbody tr:nth-child(even) { background: var(--row); }
    tbody tr { cursor: pointer; }
    tbody tr:focus { outline: 2px solid var(--l0); outline-offset: -2px; }
    tbody tr.chosen { background: var(--chosen); }
    td.seq, td.time { white-space: nowrap; }
    .origin-user::before { content: "\\25B2 "; color: var(--l5); } .origin-app::before { content: "\\25CF "; color: var(--muted); }
    .timeline-wrap { overflow-x: auto; }
    @media (max-width: 760px) { body { padding: .6rem; } .explorer { grid-template-columns: 1fr; }
      td.cause, th.cause { display: none; } svg.timeline { min-width: 680px; } }
    @media print { .controls { display: none; } tbody tr.chosen { background: none; } .panel { break-inside: avoid; }
      body { padding: 0; } }
    """
}
