/// The console's style sheet, served as a file of its own (`/console/assets/console.css`) so
/// that the pages' Content-Security-Policy allows no inline style: light and dark, one column on
/// a phone, focus always visible.
enum ConsoleStyle {
  static let css = """
    :root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #575757; --line: #c8c8c8;
      --row: #f3f5f8; --accent: #0057a3; --bad: #b3261e; --ok: #006b43; }
    @media (prefers-color-scheme: dark) { :root { --bg: #15171a; --fg: #ececec; --muted: #b0b0b0;
      --line: #44474d; --row: #1e2126; --accent: #8ec5ff; --bad: #ff9a90; --ok: #5fd39c; } }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg);
      font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    a { color: var(--accent); }
    a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, iframe:focus-visible {
      outline: 3px solid var(--accent); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: var(--bg); }
    header.bar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem;
      border-bottom: 1px solid var(--line); }
    header.bar .brand { font-weight: 600; text-decoration: none; color: var(--fg); }
    header.bar .app { color: var(--muted); }
    header.bar form { margin-left: auto; }
    main { padding: 1rem; max-width: 80rem; }
    h1 { font-size: 1.4rem; margin: .2rem 0 1rem; overflow-wrap: anywhere; }
    button, input, select { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line);
      border-radius: 4px; padding: .35rem .6rem; }
    button { cursor: pointer; background: var(--row); }
    form.filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: .6rem 1rem;
      margin-bottom: 1rem; align-items: end; }
    form.filters label, form.signin label { display: flex; flex-direction: column; gap: .2rem; color: var(--muted);
      font-size: .9rem; }
    form.signin { display: flex; flex-direction: column; gap: .8rem; max-width: 26rem; }
    .problem { color: var(--bad); border-left: 4px solid var(--bad); padding: .3rem .8rem; }
    .table-wrap { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; font-size: .95rem; }
    th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { color: var(--muted); font-weight: 600; }
    td.id { overflow-wrap: anywhere; max-width: 22rem; unicode-bidi: isolate; }
    bdi { unicode-bidi: isolate; }
    .ok { color: var(--ok); } .bad { color: var(--bad); font-weight: 600; } .muted { color: var(--muted); }
    td.number { text-align: right; font-variant-numeric: tabular-nums; }
    tbody tr:nth-child(even) { background: var(--row); }
    nav.pages { margin: 1rem 0; }
    dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
    dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
    ul.actions { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; padding: 0; list-style: none; }
    header.bar nav.sections { display: flex; gap: 1rem; }
    p.note { color: var(--muted); font-size: .9rem; margin: .2rem 0 .6rem; }
    form.inline { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: .6rem; }
    form.inline label { display: flex; flex-direction: column; gap: .2rem; color: var(--muted); font-size: .9rem; }
    section.plot { margin: 1.6rem 0; max-width: 60rem; }
    section.plot h2 { font-size: 1.1rem; margin: 0 0 .2rem; }
    svg.chart { width: 100%; max-width: 40rem; height: auto; display: block; }
    svg.chart .bar { fill: var(--accent); } svg.chart .bar:hover { fill: var(--fg); }
    svg.chart text { fill: var(--fg); font-size: 13px; } svg.chart text.axis { fill: var(--muted); font-size: 12px; }
    svg.chart .axis-line { stroke: var(--line); }
    details.figures { margin-top: .4rem; } details.figures summary { cursor: pointer; color: var(--accent); }
    ul.sessions { padding-left: 1.2rem; } ul.sessions li { overflow-wrap: anywhere; }
    iframe.report { width: 100%; height: 80vh; border: 1px solid var(--line); border-radius: 4px; }
    @media (max-width: 40rem) { main { padding: .6rem; } th, td { padding: .3rem .4rem; }
      form.filters { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .4rem .6rem; }
      form.filters label { font-size: .8rem; } form.filters input, form.filters select { padding: .25rem .4rem; } }
    """
}
