import NavReport

/// The overview's plots, as inline SVG the page's policy allows (no style attribute: the style
/// sheet colors them, light and dark). Each plot is an image with a description that says its
/// figures, and its figures are in a table beside it for a screen reader or a copy.
enum ConsoleChart {
  /// One bar: what it is, its size, and the size in words.
  struct Bar {
    let label: String
    let value: Int
    let said: String
  }

  /// Columns over time, one per bar, oldest at the left; every label is under its column when
  /// they fit, else every few.
  static func columns(_ bars: [Bar], title: String, unit: String) -> Markup {
    let (width, height, base, top) = (480, 160, 132, 22)
    let highest = max(bars.map(\.value).max() ?? 0, 1)
    let slot = bars.isEmpty ? width : width / bars.count
    let every = max(1, (bars.count * 48 + width - 1) / width)
    var parts: [Markup] = []
    for (index, bar) in bars.enumerated() {
      let tall = bar.value == 0 ? 0 : max(2, bar.value * (base - top) / highest)
      let x = index * slot
      parts.append(
        """
        <rect class="bar" x="\(x + 2)" y="\(base - tall)" width="\(max(1, slot - 4))" height="\(tall)">\
        <title>\(bar.label): \(bar.said)</title></rect>
        """)
      if index % every == 0 {
        parts.append(
          #"<text class="axis" x="\#(x + slot / 2)" y="\#(base + 18)" text-anchor="middle">\#(String(bar.label.suffix(5)))</text>"#
        )
      }
    }
    let total = bars.reduce(0) { $0 + $1.value }
    let description =
      "\(title): \(total) \(unit) in all"
      + (bars.max { $0.value < $1.value }.map { $0.value > 0 ? ", most on \($0.label) (\($0.said))" : "" } ?? "")
    return """
      <svg class="chart" viewBox="0 0 \(width) \(height)" role="img" aria-label="\(description)">\
      <line class="axis-line" x1="0" y1="\(base)" x2="\(width)" y2="\(base)"></line>\
      <text class="axis" x="0" y="14">\(highest) \(unit)</text>\(parts)</svg>
      """
  }

  /// Horizontal bars, largest first, each labelled with what it is and its size in words.
  static func bars(_ bars: [Bar], title: String) -> Markup {
    let (width, row, labelWidth, valueWidth) = (480, 26, 170, 80)
    let highest = max(bars.map(\.value).max() ?? 0, 1)
    let room = width - labelWidth - valueWidth
    var parts: [Markup] = []
    for (index, bar) in bars.enumerated() {
      let y = index * row
      let long = bar.value == 0 ? 0 : max(2, bar.value * room / highest)
      let shown = bar.label.count > 22 ? String(bar.label.prefix(21)) + "…" : bar.label
      parts.append(
        """
        <text class="label" x="\(labelWidth - 8)" y="\(y + 18)" text-anchor="end">\(shown)<title>\(bar.label)</title></text>\
        <rect class="bar" x="\(labelWidth)" y="\(y + 5)" width="\(long)" height="\(row - 9)">\
        <title>\(bar.label): \(bar.said)</title></rect>\
        <text class="value" x="\(labelWidth + long + 6)" y="\(y + 18)">\(bar.said)</text>
        """)
    }
    let description =
      title + ": " + bars.map { "\($0.label) \($0.said)" }.joined(separator: "; ")
    return """
      <svg class="chart" viewBox="0 0 \(width) \(max(row, bars.count * row))" role="img" \
      aria-label="\(description)">\(parts)</svg>
      """
  }

  /// The figures of a plot as a table, folded under it.
  static func table(_ bars: [Bar], caption: String, columns: (String, String)) -> Markup {
    let rows: [Markup] = bars.map {
      #"<tr><th scope="row"><bdi>\#($0.label)</bdi></th><td class="number">\#($0.said)</td></tr>"#
    }
    return """
      <details class="figures"><summary>\(caption) as a table</summary><div class="table-wrap"><table>\
      <thead><tr><th scope="col">\(columns.0)</th><th scope="col">\(columns.1)</th></tr></thead>\
      <tbody>\(rows)</tbody></table></div></details>
      """
  }
}
