import Foundation

/// One self-contained HTML page of a report: the style, the data as JSON in a
/// `<script type="application/json">` element, and the script that renders it. Nothing is fetched:
/// it opens from a `file://` URL as from any static host, and its content security policy forbids
/// the network. Untrusted text (paths, messages) reaches the page only inside the JSON, escaped
/// so it cannot end the element, and the script puts it in the page as text, never as markup.
struct HTMLPage {
    /// The page's title, escaped as text.
    let title: String
    /// The page's own style, added to the shared one.
    let style: String
    /// The page's script, run after the data element is in the document.
    let script: String
    /// The page's static markup: the empty containers the script fills.
    let body: String

    /// The whole document, with `data` (JSON) embedded.
    func document(data: Data) -> String {
        """
        <!doctype html>
        <html lang="en" data-status="loading">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file: data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'none'">
        <title>\(Self.escaped(title))</title>
        <style>\(Self.sharedStyle)\(style)</style>
        </head>
        <body>
        <p id="status" class="status">Loading…</p>
        <noscript><p>This report needs JavaScript to render its data.</p></noscript>
        \(body)
        <script type="application/json" id="report-data">\(Self.scriptJSON(data))</script>
        <script>
        window.addEventListener('error', function (event) {
          document.documentElement.dataset.status = 'error';
          document.getElementById('status').textContent = 'Error: ' + event.message;
        });
        \(Self.sharedScript)
        </script>
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    /// Writes the document as `folder`'s `index.html` and returns its path.
    func write(into folder: ReportFolder, data: Data) throws(ReportFolderError) -> String {
        try folder.writePage(Array(document(data: data).utf8))
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as entities, for HTML text and attribute values.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// JSON text that is safe inside a `<script>` element: `<`, `>` and `&` (which appear only
    /// inside JSON strings) as `\u` escapes, so no `</script>` or `<!--` can end or change the
    /// element, and U+2028/U+2029 escaped for older parsers.
    static func scriptJSON(_ data: Data) -> String {
        var result = ""
        let text = String(decoding: data, as: UTF8.self)
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": result += "\\u003c"
            case ">": result += "\\u003e"
            case "&": result += "\\u0026"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The JSON encoder of every report's data: sorted keys, slashes kept.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    // The look every page shares: system fonts, a light card grid, readable tables.
    static let sharedStyle = """
        :root { color-scheme: light; --fg: #1d2330; --muted: #5d6677; --line: #d9dde5; --bg: #f5f6f8; --card: #fff;
          --bad: #c0392b; --good: #1e8449; --warn: #b9770e; --accent: #2e5aac; }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 20px 28px 60px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
          color: var(--fg); background: var(--bg); }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 17px; margin: 28px 0 8px; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
        h2 .count { color: var(--muted); font-weight: normal; font-size: 14px; }
        .sub { color: var(--muted); margin: 0 0 16px; }
        .status { position: fixed; right: 12px; bottom: 8px; margin: 0; font-size: 11px; color: var(--muted); }
        table { border-collapse: collapse; background: var(--card); }
        th, td { border: 1px solid var(--line); padding: 4px 10px; text-align: left; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        .controls { display: flex; gap: 12px; flex-wrap: wrap; align-items: center; margin: 16px 0; padding: 10px 12px;
          background: var(--card); border: 1px solid var(--line); border-radius: 8px; position: sticky; top: 0; z-index: 5; }
        .controls label { display: flex; gap: 6px; align-items: center; color: var(--muted); }
        select, input, button { font: inherit; }
        button { cursor: pointer; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 4px 12px; }
        button:hover { border-color: var(--accent); }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px; }
        .card { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 8px; overflow: hidden;
          display: flex; flex-direction: column; }
        .card .thumb { width: 100%; height: 170px; object-fit: contain; background: #e9ecf1; display: block; }
        .card .nothumb { height: 170px; display: flex; align-items: center; justify-content: center; color: var(--muted);
          background: repeating-linear-gradient(45deg, #eef0f4, #eef0f4 8px, #e6e9ee 8px, #e6e9ee 16px); font-size: 12px; }
        .card figcaption { padding: 8px 10px; display: flex; flex-direction: column; gap: 3px; }
        .path { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; word-break: break-all; }
        .meta { color: var(--muted); font-size: 12px; }
        .score { font-size: 12px; font-variant-numeric: tabular-nums; }
        .score.bad { color: var(--bad); } .score.good { color: var(--good); }
        .message { font-size: 12px; color: #3c4452; font-style: italic; }
        .pill { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; background: #e8ecf5; color: var(--accent); }
        .pill.bad { background: #f8e1de; color: var(--bad); } .pill.good { background: #dff1e6; color: var(--good); }
        .more { margin: 10px 0; }
        .tilemap-host { position: relative; }
        .tilemap { position: absolute; top: 0; left: 0; width: 100%; height: 100%; pointer-events: none; }
        .tilemap rect { pointer-events: all; fill-opacity: 0.3; stroke-width: 2; vector-effect: non-scaling-stroke; }
        .empty { color: var(--muted); }

        """

    // Helpers every page's script uses: element creation with text only (never markup), number formats.
    static let sharedScript = """
        function el(tag, className, text) {
          var node = document.createElement(tag);
          if (className) node.className = className;
          if (text !== undefined && text !== null) node.textContent = String(text);
          return node;
        }
        function fmt(value, digits) {
          if (value === null || value === undefined || typeof value !== 'number' || !isFinite(value)) return '–';
          return value.toFixed(digits === undefined ? 1 : digits);
        }
        function fmtBytes(n) {
          if (typeof n !== 'number') return '';
          if (n >= 1048576) return (n / 1048576).toFixed(1) + ' MB';
          if (n >= 1024) return Math.round(n / 1024) + ' kB';
          return n + ' B';
        }
        function hashParams() {
          var params = {};
          location.hash.replace(/^#/, '').split('&').forEach(function (part) {
            if (!part) return;
            var at = part.indexOf('=');
            var key = decodeURIComponent(at < 0 ? part : part.slice(0, at));
            params[key] = at < 0 ? '' : decodeURIComponent(part.slice(at + 1));
          });
          return params;
        }
        // The blur model's tiles over a thumbnail: an SVG as large as the image's box whose viewBox is the
        // analysis plane as displayed, so `meet` letterboxes it as `object-fit: contain` does the image;
        // the plane is in stored orientation, turned by the EXIF orientation's matrix. Green sharp, red blurred.
        function tileMapOver(image, map) {
          if (!map || !map.tiles || !map.tiles.length) return image;
          var NS = 'http://www.w3.org/2000/svg';
          var w = Number(map.width), h = Number(map.height), side = Number(map.tileSize), o = Number(map.orientation) || 1;
          var turned = o >= 5 && o <= 8;
          var host = el('div', 'tilemap-host');
          host.appendChild(image);
          var svg = document.createElementNS(NS, 'svg');
          svg.setAttribute('class', 'tilemap');
          svg.setAttribute('viewBox', '0 0 ' + (turned ? h : w) + ' ' + (turned ? w : h));
          svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
          svg.setAttribute('data-tiles', String(map.tiles.length));
          var g = document.createElementNS(NS, 'g');
          var matrix = { 2: [-1, 0, 0, 1, w, 0], 3: [-1, 0, 0, -1, w, h], 4: [1, 0, 0, -1, 0, h], 5: [0, 1, 1, 0, 0, 0],
                         6: [0, 1, -1, 0, h, 0], 7: [0, -1, -1, 0, h, w], 8: [0, -1, 1, 0, 0, w] }[o];
          if (matrix) g.setAttribute('transform', 'matrix(' + matrix.join(' ') + ')');
          map.tiles.forEach(function (tile) {
            var p = Math.min(1, Math.max(0, Number(tile.p) || 0));
            var colour = 'hsl(' + Math.round(120 * (1 - p)) + ', 85%, 45%)';
            var rect = document.createElementNS(NS, 'rect');
            rect.setAttribute('class', 'tile');
            rect.setAttribute('x', String(Number(tile.x)));
            rect.setAttribute('y', String(Number(tile.y)));
            rect.setAttribute('width', String(side));
            rect.setAttribute('height', String(side));
            rect.setAttribute('fill', colour);
            rect.setAttribute('stroke', colour);
            rect.setAttribute('data-p', p.toFixed(3));
            var title = document.createElementNS(NS, 'title');
            title.textContent = 'blur probability ' + p.toFixed(3);
            rect.appendChild(title);
            g.appendChild(rect);
          });
          svg.appendChild(g);
          host.appendChild(svg);
          return host;
        }
        function ready(text) {
          if (document.documentElement.dataset.status === 'error') return;
          document.documentElement.dataset.status = 'ready';
          document.getElementById('status').textContent = text || 'Ready';
        }

        """
}
