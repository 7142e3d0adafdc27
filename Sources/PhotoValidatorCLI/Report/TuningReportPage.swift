/// The page of `tune --report`: per check and photo type the score strip (every photo a dot,
/// clickable to its thumbnail), a threshold slider recomputing the confusion counts and balanced
/// accuracy, the photos misjudged at the current and the recommended threshold sorted by margin,
/// duplicate pairs side by side, and the `thresholds.json` the sliders stand for.
///
/// The URL's fragment sets sliders, so a headless browser can show recomputed counts:
/// `#blur-room=30` sets one section's, `#threshold=30` every section's.
enum TuningReportPage {
    /// The page.
    static let page = HTMLPage(
        title: "photo-validator: tune report", style: style, script: script,
        body: #"<header id="header"></header><nav id="toc" class="toc"></nav><main id="sections"></main><section id="json"><h2>thresholds.json for the sliders</h2><p class="sub">Use it with <code>serve --config</code> or <code>validate --config</code>.</p><pre id="thresholds-json"></pre></section><section id="unscored"></section>"#
    )

    private static let style = """
        .toc { display: flex; gap: 8px; flex-wrap: wrap; margin: 8px 0 0; }
        .toc a { color: var(--accent); text-decoration: none; border: 1px solid var(--line); background: #fff; border-radius: 14px; padding: 2px 10px; }
        .tsec { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 4px 18px 16px; margin: 20px 0; }
        .strip { width: 100%; height: 140px; display: block; background: #fafbfc; border: 1px solid var(--line); border-radius: 6px; }
        .strip circle { cursor: pointer; }
        .strip circle.selected { stroke: #000; stroke-width: 2.5; }
        .legend { display: flex; gap: 16px; font-size: 12px; color: var(--muted); margin: 4px 0 8px; flex-wrap: wrap; }
        .legend i { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 4px; vertical-align: -1px; }
        .sliderbox { display: flex; gap: 14px; align-items: center; flex-wrap: wrap; margin: 10px 0; }
        .sliderbox input[type=range] { flex: 1; min-width: 260px; }
        .sliderbox output { font-weight: 600; font-variant-numeric: tabular-nums; min-width: 70px; }
        .layout { display: grid; grid-template-columns: minmax(0, 1fr) 280px; gap: 18px; align-items: start; }
        .inspector { border: 1px solid var(--line); border-radius: 8px; padding: 8px; min-height: 120px; font-size: 12px; background: #fafbfc; }
        .inspector img { max-width: 100%; display: block; margin: 0 auto 6px; }
        .inspector .tilemap-host { width: fit-content; max-width: 100%; margin: 0 auto 6px; }
        .inspector .tilemap-host img { margin: 0; }
        .inspector .pairimgs { display: grid; grid-template-columns: 1fr 1fr; gap: 4px; }
        .misjudged { margin-top: 12px; }
        .misjudged h3 { font-size: 14px; margin: 14px 0 6px; }
        .grid.small { grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); }
        .grid.small .thumb, .grid.small .nothumb { height: 120px; }
        .grid.small .pair .thumb, .grid.small .pair .nothumb { height: 100px; }
        .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 2px; background: #e9ecf1; }
        .pair.wide .thumb, .pair.wide .nothumb { height: 150px; }
        pre { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
        .metrics td.num { min-width: 70px; }
        .metrics tr.slider td { background: #fff6e5; }

        """

    private static let script = """
        (function () {
          'use strict';
          var data = JSON.parse(document.getElementById('report-data').textContent);
          var params = hashParams();
          var SVGNS = 'http://www.w3.org/2000/svg';
          var colours = { positive: '#c0392b', negative: '#1e8449' };
          var sliders = {};

          function flagged(section, score, threshold) {
            if (section.rule === 'below') return score < threshold;
            if (section.rule === 'atLeast') return score >= threshold;
            return score <= threshold;
          }
          function margin(section, item, threshold) { return Math.abs(item.score - threshold); }
          function wrong(section, item, threshold) { return flagged(section, item.score, threshold) !== item.positive; }
          function counts(section, threshold, held) {
            var c = { tp: 0, fp: 0, tn: 0, fn: 0 };
            section.items.forEach(function (item) {
              if (item.held !== held) return;
              var f = flagged(section, item.score, threshold);
              if (item.positive) { if (f) c.tp++; else c.fn++; } else { if (f) c.fp++; else c.tn++; }
            });
            var recall = c.tp + c.fn ? c.tp / (c.tp + c.fn) : 1;
            var specificity = c.tn + c.fp ? c.tn / (c.tn + c.fp) : 1;
            c.ba = (recall + specificity) / 2;
            c.n = c.tp + c.fp + c.tn + c.fn;
            return c;
          }
          function shown(section, value) { return section.integer ? String(Math.round(value)) : fmt(value, value !== 0 && Math.abs(value) < 2 ? 3 : 2); }

          function thumbImage(src, alt, cls) {
            if (!src) return el('div', 'nothumb', 'no thumbnail');
            var img = el('img', cls || 'thumb');
            img.loading = 'lazy';
            img.alt = alt;
            img.src = src;
            return img;
          }

          function itemCard(section, item, threshold) {
            var figure = el('figure', 'card');
            figure.dataset.path = item.path;
            if (item.path2 !== undefined && item.path2 !== null) {
              var pair = el('div', 'pair');
              pair.appendChild(thumbImage(item.thumb, item.path));
              pair.appendChild(thumbImage(item.thumb2, item.path2));
              figure.appendChild(pair);
            } else {
              figure.appendChild(tileMapOver(thumbImage(item.thumb, item.path), item.tileMap));
            }
            var caption = el('figcaption');
            caption.appendChild(el('span', 'path', item.path2 ? item.path + '  ⇄  ' + item.path2 : item.path));
            caption.appendChild(el('span', 'score bad', section.scoreName + ' ' + shown(section, item.score) + ' · margin ' + shown(section, margin(section, item, threshold))));
            if (item.blurProbability !== null && item.blurProbability !== undefined) {
              caption.appendChild(el('span', 'meta blur-probability', 'blur_probability ' + fmt(item.blurProbability, 3)));
            }
            var tags = el('span', 'meta');
            tags.appendChild(el('span', 'pill ' + (item.positive ? 'bad' : 'good'), item.label));
            if (item.held) tags.appendChild(document.createTextNode(' held aside'));
            caption.appendChild(tags);
            figure.appendChild(caption);
            return figure;
          }

          function axis(section) {
            var values = section.items.map(function (i) { return i.score; }).concat([section.current, section.recommended]);
            var lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
            if (section.logarithmic) {
              lo = Math.max(0, lo);
              var f = function (v) { return Math.log(1 + Math.max(0, v)); };
              var a = f(lo), b = f(hi) || 1;
              return { lo: lo, hi: hi, to: function (v) { return (f(v) - a) / ((b - a) || 1); },
                       from: function (t) { return Math.exp(a + t * (b - a)) - 1; } };
            }
            if (hi === lo) hi = lo + 1;
            return { lo: lo, hi: hi, to: function (v) { return (v - lo) / (hi - lo); }, from: function (t) { return lo + t * (hi - lo); } };
          }

          function hashJitter(text) {
            var h = 2166136261;
            for (var i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619); }
            return ((h >>> 0) % 1000) / 1000 - 0.5;
          }

          function renderSection(section, container) {
            var box = el('section', 'tsec');
            box.id = section.id;
            box.dataset.section = section.id;
            var title = el('h2');
            title.appendChild(el('span', null, section.title));
            title.appendChild(el('span', 'count', section.items.length + ' labelled · current ' + shown(section, section.current)
              + ' · recommended ' + shown(section, section.recommended)));
            box.appendChild(title);
            if (section.note) box.appendChild(el('p', 'sub', section.note));

            var ax = axis(section);
            var W = 1000, H = 140, PAD = 24;
            var svg = document.createElementNS(SVGNS, 'svg');
            svg.setAttribute('class', 'strip');
            svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
            svg.setAttribute('preserveAspectRatio', 'none');
            function x(v) { return PAD + ax.to(v) * (W - 2 * PAD); }
            function line(v, colour, dash, label) {
              var l = document.createElementNS(SVGNS, 'line');
              l.setAttribute('x1', x(v)); l.setAttribute('x2', x(v)); l.setAttribute('y1', 4); l.setAttribute('y2', H - 22);
              l.setAttribute('stroke', colour); l.setAttribute('stroke-width', 2);
              if (dash) l.setAttribute('stroke-dasharray', dash);
              var t = document.createElementNS(SVGNS, 'title'); t.textContent = label; l.appendChild(t);
              svg.appendChild(l);
              return l;
            }
            line(section.current, '#7f8c8d', '6 4', 'current ' + shown(section, section.current));
            line(section.recommended, '#2e5aac', '2 3', 'recommended ' + shown(section, section.recommended));
            var sliderLine = line(section.current, '#e67e22', null, 'slider');
            var inspector = el('div', 'inspector', 'Click a dot to see the photo.');
            var selected = null;
            var dots = [];
            section.items.forEach(function (item) {
              var c = document.createElementNS(SVGNS, 'circle');
              var row = item.positive ? 34 : 86;
              c.setAttribute('cx', x(item.score));
              c.setAttribute('cy', row + hashJitter(item.path + (item.path2 || '')) * 30);
              c.setAttribute('r', 4.5);
              c.setAttribute('fill', item.positive ? colours.positive : colours.negative);
              c.setAttribute('fill-opacity', item.held ? 0.45 : 0.85);
              var t = document.createElementNS(SVGNS, 'title');
              t.textContent = item.path + ' · ' + item.label + ' · ' + shown(section, item.score);
              c.appendChild(t);
              c.addEventListener('click', function () {
                if (selected) selected.classList.remove('selected');
                selected = c; c.classList.add('selected');
                inspector.textContent = '';
                if (item.path2) {
                  var imgs = el('div', 'pairimgs');
                  imgs.appendChild(thumbImage(item.thumb, item.path, 'big'));
                  imgs.appendChild(thumbImage(item.thumb2, item.path2, 'big'));
                  inspector.appendChild(imgs);
                } else {
                  inspector.appendChild(tileMapOver(thumbImage(item.thumb, item.path, 'big'), item.tileMap));
                }
                inspector.appendChild(el('div', 'path', item.path2 ? item.path + '  ⇄  ' + item.path2 : item.path));
                inspector.appendChild(el('div', null, item.label + (item.held ? ' (held aside)' : '') + ' · ' + section.scoreName + ' ' + shown(section, item.score)));
              });
              svg.appendChild(c);
              dots.push({ node: c, item: item });
            });
            [0, 0.25, 0.5, 0.75, 1].forEach(function (t) {
              var tick = document.createElementNS(SVGNS, 'text');
              tick.setAttribute('x', PAD + t * (W - 2 * PAD)); tick.setAttribute('y', H - 6); tick.setAttribute('font-size', 11);
              tick.setAttribute('fill', '#5d6677'); tick.setAttribute('text-anchor', t === 0 ? 'start' : t === 1 ? 'end' : 'middle');
              tick.textContent = shown(section, ax.from(t));
              svg.appendChild(tick);
            });
            var rowLabels = [[section.positive, 14], [section.negative, 112]];
            rowLabels.forEach(function (r) {
              var t = document.createElementNS(SVGNS, 'text');
              t.setAttribute('x', 4); t.setAttribute('y', r[1]); t.setAttribute('font-size', 11); t.setAttribute('fill', '#5d6677');
              t.textContent = r[0];
              svg.appendChild(t);
            });

            var legend = el('div', 'legend');
            [[colours.positive, section.positive], [colours.negative, section.negative], ['#7f8c8d', 'current'], ['#2e5aac', 'recommended'], ['#e67e22', 'slider']]
              .forEach(function (entry) { var s = el('span'); var i = el('i'); i.style.background = entry[0]; s.appendChild(i); s.appendChild(document.createTextNode(entry[1])); legend.appendChild(s); });
            legend.appendChild(el('span', null, 'faded: held aside · ' + section.scoreName + ' ' + (section.rule === 'below' ? '<' : section.rule === 'atLeast' ? '≥' : '≤') + ' threshold flags ' + section.positive));

            var sliderBox = el('div', 'sliderbox');
            sliderBox.appendChild(el('span', null, 'Threshold'));
            var range = el('input');
            range.type = 'range'; range.min = 0; range.max = 1000; range.step = 1;
            var out = el('output');
            out.dataset.threshold = section.id;
            sliderBox.appendChild(range);
            sliderBox.appendChild(out);
            var toCurrent = el('button', null, 'current'), toRecommended = el('button', null, 'recommended');
            sliderBox.appendChild(toCurrent); sliderBox.appendChild(toRecommended);

            var table = el('table', 'metrics');
            var heads = ['threshold', 'at', section.positive + ' flagged', section.negative + ' flagged', section.negative + ' passed', section.positive + ' passed', 'balanced accuracy'];
            var tr = el('tr'); heads.forEach(function (h, i) { tr.appendChild(el('th', i > 1 ? 'num' : null, h)); }); table.appendChild(tr);
            var hasHeld = section.items.some(function (i) { return i.held; });
            var rows = {};
            [['current', section.current], ['recommended', section.recommended], ['slider', null]].forEach(function (spec) {
              [false, true].forEach(function (held) {
                if (held && !hasHeld) return;
                var row = el('tr', spec[0]);
                row.dataset.row = spec[0] + (held ? '-held' : '');
                var cells = {};
                ['name', 'value', 'tp', 'fp', 'tn', 'fn', 'ba'].forEach(function (key, i) {
                  var td = el('td', i > 1 ? 'num' : null);
                  td.dataset.cell = key;
                  cells[key] = td; row.appendChild(td);
                });
                cells.name.textContent = spec[0] + (held ? ' (held aside)' : hasHeld ? ' (tuning part)' : '');
                rows[spec[0] + (held ? '-held' : '')] = { cells: cells, held: held };
                table.appendChild(row);
              });
            });
            function fill(key, threshold) {
              ['', '-held'].forEach(function (suffix) {
                var r = rows[key + suffix];
                if (!r) return;
                var c = counts(section, threshold, r.held);
                r.cells.value.textContent = shown(section, threshold);
                r.cells.tp.textContent = c.tp; r.cells.fp.textContent = c.fp; r.cells.tn.textContent = c.tn; r.cells.fn.textContent = c.fn;
                r.cells.ba.textContent = fmt(c.ba, 3);
              });
            }
            fill('current', section.current);
            fill('recommended', section.recommended);

            var misjudged = el('div', 'misjudged');
            function listMisjudged(label, threshold, host) {
              var items = section.items.filter(function (item) { return wrong(section, item, threshold); });
              items.sort(function (a, b) { return margin(section, b, threshold) - margin(section, a, threshold); });
              var wrap = el('div');
              wrap.dataset.misjudged = label;
              wrap.appendChild(el('h3', null, 'Misjudged at the ' + label + ' threshold ' + shown(section, threshold) + ': ' + items.length + ' (largest margin first)'));
              var grid = el('div', 'grid small');
              items.forEach(function (item) { grid.appendChild(itemCard(section, item, threshold)); });
              if (!items.length) wrap.appendChild(el('p', 'empty', 'None.'));
              wrap.appendChild(grid);
              host.appendChild(wrap);
            }
            listMisjudged('current', section.current, misjudged);
            listMisjudged('recommended', section.recommended, misjudged);

            function setThreshold(value) {
              if (section.integer) value = Math.round(value);
              sliders[section.id] = value;
              range.value = Math.round(1000 * ax.to(value));
              out.textContent = shown(section, value);
              sliderLine.setAttribute('x1', x(value)); sliderLine.setAttribute('x2', x(value));
              dots.forEach(function (d) { d.node.setAttribute('stroke', wrong(section, d.item, value) ? '#000' : 'none'); });
              fill('slider', value);
              updateJSON();
            }
            range.addEventListener('input', function () { setThreshold(ax.from(range.value / 1000)); });
            toCurrent.addEventListener('click', function () { setThreshold(section.current); });
            toRecommended.addEventListener('click', function () { setThreshold(section.recommended); });

            var layout = el('div', 'layout');
            var left = el('div');
            left.appendChild(svg); left.appendChild(legend); left.appendChild(sliderBox); left.appendChild(table);
            layout.appendChild(left); layout.appendChild(inspector);
            box.appendChild(layout);
            box.appendChild(misjudged);
            container.appendChild(box);

            var start = section.current;
            if (params[section.id] !== undefined && isFinite(parseFloat(params[section.id]))) start = parseFloat(params[section.id]);
            else if (params.threshold !== undefined && isFinite(parseFloat(params.threshold))) start = parseFloat(params.threshold);
            setThreshold(start);
          }

          function updateJSON() {
            var snippet = {};
            data.sections.forEach(function (section) {
              if (!(section.id in sliders)) return;
              var value = sliders[section.id];
              var node = snippet;
              section.setting.forEach(function (key, i) {
                if (i === section.setting.length - 1) node[key] = section.integer ? Math.round(value) : Math.round(value * 1000) / 1000;
                else node = node[key] = node[key] || {};
              });
            });
            document.getElementById('thresholds-json').textContent = JSON.stringify(snippet, null, 2);
          }

          var header = document.getElementById('header');
          header.appendChild(el('h1', null, 'Tuning report'));
          header.appendChild(el('p', 'sub', data.generated + (data.arguments.length ? ' · photo-validator ' + data.arguments.join(' ') : '')));
          var toc = document.getElementById('toc');
          data.sections.forEach(function (section) {
            var a = el('a', null, section.title);
            a.href = '#' + section.id;
            a.addEventListener('click', function (event) { event.preventDefault(); document.getElementById(section.id).scrollIntoView(); });
            toc.appendChild(a);
          });
          var container = document.getElementById('sections');
          data.sections.forEach(function (section) { renderSection(section, container); });
          if (data.unscored.length) {
            var box = document.getElementById('unscored');
            box.appendChild(el('h2', null, 'Not scored (' + data.unscored.length + ')'));
            var list = el('ul');
            data.unscored.forEach(function (line) { list.appendChild(el('li', 'path', line)); });
            box.appendChild(list);
          }
          ready('Ready: ' + data.sections.length + ' sections');
        })();

        """
}
