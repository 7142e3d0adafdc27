/// The page of `validate --report`: counts by outcome and code, the refused photos grouped by
/// reason, the sampled passed photos, the unreadable files; sorting and filters in plain JavaScript.
///
/// The URL's fragment drives it too, so a headless browser can be pointed at a state:
/// `#code=blurry&type=room&folder=a/b&sort=score-desc&all` (`all` shows every page of every group).
enum ValidationReportPage {
    /// The page.
    static let page = HTMLPage(
        title: "photo-validator: validate report", style: style, script: script,
        body: #"<header id="header"></header><div id="counts" class="counts"></div><div id="controls" class="controls"></div><main id="groups"></main><section id="unreadable"></section>"#
    )

    private static let style = """
        .counts { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
        .bigs { display: flex; gap: 12px; }
        .big { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 110px; }
        .big b { display: block; font-size: 26px; font-variant-numeric: tabular-nums; }
        .big.bad b { color: var(--bad); } .big.good b { color: var(--good); }
        .group-message { color: var(--muted); margin: -4px 0 10px; font-style: italic; }
        .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 2px; background: #e9ecf1; }
        .pair .thumb, .pair .nothumb { height: 130px; }
        .pair-label { font-size: 11px; color: var(--muted); text-align: center; }

        """

    private static let script = """
        (function () {
          'use strict';
          var data = JSON.parse(document.getElementById('report-data').textContent);
          var PAGE = 48;
          var params = hashParams();
          var showAll = 'all' in params;
          var state = { code: params.code || '', type: params.type || '', folder: params.folder || '', text: params.q || '',
                        sort: params.sort || 'score-asc' };

          // The figure a group is about, and the threshold it was compared with.
          function score(row, code) {
            switch (code) {
              case 'blurry': return { value: row.blur, text: 'blur ' + fmt(row.blur) + ' < ' + fmt(row.blurThreshold), bad: true };
              case 'too_dark': return { value: row.p90, text: 'p90 luma ' + fmt(row.p90, 0) + ' < ' + data.darkP90, bad: true };
              case 'overexposed': return { value: row.clipped, text: 'clipped ' + fmt(100 * row.clipped, 1) + '% ≥ ' + fmt(100 * data.clippedShare, 0) + '%', bad: true };
              case 'low_resolution':
                var side = Math.min(row.width || 0, row.height || 0);
                return { value: side, text: 'short side ' + side + ' px < ' + row.minimumShortSide, bad: true };
              case 'invalid_image': return { value: null, text: row.error || 'not decoded', bad: true };
              case 'duplicate_photo': return { value: row.blur, text: 'blur ' + fmt(row.blur) + ' (threshold ' + fmt(row.blurThreshold) + ')', bad: false };
              case 'passed': return { value: row.blur, text: 'blur ' + fmt(row.blur) + ' ≥ ' + fmt(row.blurThreshold), bad: false };
              default: return { value: row.blur, text: 'blur ' + fmt(row.blur), bad: false };
            }
          }

          function thumb(src, alt) {
            if (!src) return el('div', 'nothumb', 'no thumbnail');
            var img = el('img', 'thumb');
            img.loading = 'lazy';
            img.decoding = 'async';
            img.alt = alt;
            img.src = src;
            return img;
          }

          function card(row, code) {
            var figure = el('figure', 'card');
            figure.dataset.code = code;
            figure.dataset.path = row.path;
            if (code === 'duplicate_photo' && row.duplicateOf) {
              var pair = el('div', 'pair');
              pair.appendChild(tileMapOver(thumb(row.thumb, row.path), row.tileMap));
              pair.appendChild(thumb(row.duplicateThumb, row.duplicateOf));
              pair.appendChild(el('div', 'pair-label', 'this photo'));
              pair.appendChild(el('div', 'pair-label', 'earlier photo'));
              figure.appendChild(pair);
            } else {
              figure.appendChild(tileMapOver(thumb(row.thumb, row.path), row.tileMap));
            }
            var caption = el('figcaption');
            caption.appendChild(el('span', 'path', row.path));
            var size = row.width ? row.width + '×' + row.height : 'size unknown';
            caption.appendChild(el('span', 'meta', [size, row.format || '?', fmtBytes(row.bytes), row.type].filter(Boolean).join(' · ')));
            var s = score(row, code);
            caption.appendChild(el('span', 'score ' + (s.bad ? 'bad' : 'good'), s.text));
            if (row.blurProbability !== null && row.blurProbability !== undefined) {
              caption.appendChild(el('span', 'meta blur-probability', 'blur_score ' + fmt(row.blur) + ' · blur_probability ' + fmt(row.blurProbability, 3)));
            }
            if (code === 'duplicate_photo' && row.duplicateOf) caption.appendChild(el('span', 'meta', 'same as ' + row.duplicateOf));
            var at = row.failures.indexOf(code);
            var message = at >= 0 ? row.messages[at] : row.messages[0];
            if (message) caption.appendChild(el('span', 'message', '“' + message + '”'));
            if (row.failures.length > 1) {
              var others = el('span', 'meta');
              row.failures.forEach(function (other) { if (other !== code) others.appendChild(el('span', 'pill bad', other)); });
              caption.appendChild(others);
            }
            figure.appendChild(caption);
            return figure;
          }

          function matches(row) {
            if (state.type && row.type !== state.type) return false;
            if (state.folder && row.folder !== state.folder) return false;
            if (state.text && row.path.toLowerCase().indexOf(state.text.toLowerCase()) < 0) return false;
            return true;
          }

          function sorted(rows, code) {
            var copy = rows.slice();
            if (state.sort === 'path') {
              copy.sort(function (a, b) { return a.path < b.path ? -1 : a.path > b.path ? 1 : 0; });
            } else {
              var sign = state.sort === 'score-desc' ? -1 : 1;
              copy.sort(function (a, b) {
                var x = score(a, code).value, y = score(b, code).value;
                if (x === null || x === undefined) return 1;
                if (y === null || y === undefined) return -1;
                return sign * (x - y);
              });
            }
            return copy;
          }

          function group(container, code, title, message, rows) {
            var section = el('section');
            section.dataset.group = code;
            var heading = el('h2');
            heading.appendChild(el('span', 'pill ' + (code === 'passed' ? 'good' : 'bad'), title));
            heading.appendChild(el('span', 'count', rows.length + (rows.length === 1 ? ' photo' : ' photos')));
            section.appendChild(heading);
            if (message) section.appendChild(el('p', 'group-message', message));
            var grid = el('div', 'grid');
            section.appendChild(grid);
            var shown = 0;
            var more = el('button', 'more');
            function next() {
              var end = showAll ? rows.length : Math.min(rows.length, shown + PAGE);
              var fragment = document.createDocumentFragment();
              for (; shown < end; shown++) fragment.appendChild(card(rows[shown], code));
              grid.appendChild(fragment);
              if (shown < rows.length) {
                more.textContent = 'Show ' + Math.min(PAGE, rows.length - shown) + ' more (' + (rows.length - shown) + ' not shown)';
                more.hidden = false;
              } else {
                more.hidden = true;
              }
            }
            more.addEventListener('click', next);
            section.appendChild(more);
            next();
            if (rows.length === 0) section.appendChild(el('p', 'empty', 'No photo matches the filters.'));
            container.appendChild(section);
          }

          function render() {
            var container = document.getElementById('groups');
            container.textContent = '';
            var rows = data.rows.filter(matches);
            var shownCodes = data.codes.filter(function (code) { return data.counts.byCode[code]; });
            shownCodes.forEach(function (code) {
              if (state.code && state.code !== code) return;
              var members = rows.filter(function (row) { return row.failures.indexOf(code) >= 0; });
              var sample = data.rows.filter(function (row) { return row.failures.indexOf(code) >= 0; })[0];
              var message = sample ? sample.messages[sample.failures.indexOf(code)] : '';
              group(container, code, code, message, sorted(members, code));
            });
            if (!state.code || state.code === 'passed') {
              var passed = rows.filter(function (row) { return row.passed; });
              var title = data.passedSampled ? 'passed (a sample of ' + data.counts.passed + ')' : 'passed';
              group(container, 'passed', title, '', sorted(passed, 'passed'));
            }
            var count = container.querySelectorAll('figure.card').length;
            ready('Ready: ' + count + ' photos shown');
          }

          function countsTable() {
            var box = document.getElementById('counts');
            var bigs = el('div', 'bigs');
            [['passed', data.counts.passed, 'good'], ['refused', data.counts.failed, 'bad'],
             ['unreadable', data.counts.unreadable, data.counts.unreadable ? 'bad' : ''], ['skipped', data.counts.skipped, '']]
              .forEach(function (item) {
                var big = el('div', 'big ' + item[2]);
                big.dataset.count = item[0];
                big.appendChild(el('b', null, item[1]));
                big.appendChild(el('span', null, item[0]));
                bigs.appendChild(big);
              });
            box.appendChild(bigs);
            var table = el('table');
            var head = el('tr');
            head.appendChild(el('th', null, 'failure code'));
            head.appendChild(el('th', 'num', 'photos'));
            table.appendChild(head);
            data.codes.forEach(function (code) {
              var n = data.counts.byCode[code];
              if (!n) return;
              var tr = el('tr');
              tr.appendChild(el('td', null, code));
              var td = el('td', 'num', n);
              td.dataset.code = code;
              tr.appendChild(td);
              table.appendChild(tr);
            });
            if (table.children.length === 1) table.appendChild(el('tr')).appendChild(el('td', 'empty', 'no failures'));
            box.appendChild(table);
          }

          function controls() {
            var bar = document.getElementById('controls');
            function select(label, key, options) {
              var wrap = el('label', null, label);
              var input = el('select');
              options.forEach(function (option) {
                var node = el('option', null, option[1]);
                node.value = option[0];
                input.appendChild(node);
              });
              input.value = state[key];
              input.addEventListener('change', function () { state[key] = input.value; render(); });
              wrap.appendChild(input);
              bar.appendChild(wrap);
            }
            var codes = [['', 'all']].concat(data.codes.filter(function (c) { return data.counts.byCode[c]; }).map(function (c) { return [c, c]; }));
            codes.push(['passed', 'passed']);
            select('Reason', 'code', codes);
            var types = {}, folders = {};
            data.rows.forEach(function (row) { types[row.type] = true; folders[row.folder] = true; });
            select('Type', 'type', [['', 'all']].concat(Object.keys(types).sort().map(function (t) { return [t, t]; })));
            select('Folder', 'folder', [['', 'all']].concat(Object.keys(folders).sort().map(function (f) { return [f, f || '.']; })));
            select('Sort', 'sort', [['score-asc', 'score, lowest first'], ['score-desc', 'score, highest first'], ['path', 'path']]);
            var search = el('label', null, 'Path contains');
            var input = el('input');
            input.type = 'search';
            input.value = state.text;
            input.addEventListener('input', function () { state.text = input.value; render(); });
            search.appendChild(input);
            bar.appendChild(search);
          }

          function unreadableList() {
            if (!data.unreadable.length) return;
            var section = document.getElementById('unreadable');
            section.appendChild(el('h2', null, 'Unreadable files (' + data.unreadable.length + ')'));
            var table = el('table');
            data.unreadable.forEach(function (item) {
              var tr = el('tr');
              tr.appendChild(el('td', 'path', item.path));
              tr.appendChild(el('td', null, item.reason));
              table.appendChild(tr);
            });
            section.appendChild(table);
          }

          var header = document.getElementById('header');
          header.appendChild(el('h1', null, 'Validation report'));
          header.appendChild(el('p', 'sub', (data.counts.passed + data.counts.failed) + ' photos checked · ' + data.generated
            + (data.arguments.length ? ' · photo-validator ' + data.arguments.join(' ') : '')));
          countsTable();
          controls();
          unreadableList();
          render();
        })();

        """
}
