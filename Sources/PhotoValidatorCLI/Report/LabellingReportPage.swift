/// The page of `label --report`: a grid to label photos with the keyboard, a 1024 px view on
/// demand, labels kept in `localStorage` and saved as `tune`'s manifests by download.
///
/// Keys: arrows or j/k move; s sharp, b blurry; u usable, d too dark, o overexposed; x clears the
/// photo's labels; Enter or z shows it at 1024 px, Escape closes. The fragment `#labels=0:s,1:b`
/// preloads labels (what the browser tests drive the page with).
enum LabellingReportPage {
    /// The page.
    static let page = HTMLPage(
        title: "photo-validator: label photos", style: style, script: script,
        body: #"<header id="header"><h1>Label photos</h1><p class="sub">Keys: <kbd>←</kbd><kbd>→</kbd> (or <kbd>j</kbd><kbd>k</kbd>) move · <kbd>s</kbd> sharp · <kbd>b</kbd> blurry · <kbd>u</kbd> usable · <kbd>d</kbd> too dark · <kbd>o</kbd> overexposed · <kbd>x</kbd> clear · <kbd>Enter</kbd>/<kbd>z</kbd> 1024 px · <kbd>Esc</kbd> close. Labels are kept in this browser (localStorage); save them as the manifests <code>tune</code> reads.</p></header><div id="controls" class="controls"></div><main id="grid" class="grid"></main><div id="zoom" class="zoom" hidden></div>"#
    )

    private static let style = """
        kbd { border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 5px; background: #fff; font-size: 12px; }
        .card { cursor: pointer; outline: none; }
        .card.current { box-shadow: 0 0 0 3px var(--accent); }
        .card .labels { display: flex; gap: 4px; min-height: 20px; }
        .card.labelled { border-color: #9fb4dc; }
        .zoom { position: fixed; inset: 0; background: rgba(15, 18, 24, 0.88); display: flex; flex-direction: column;
          align-items: center; justify-content: center; z-index: 20; color: #fff; gap: 8px; }
        .zoom[hidden] { display: none; }
        .zoom img { max-width: 96vw; max-height: 86vh; object-fit: contain; background: #222; }
        .zoom .path { color: #dfe3ea; }
        .tally { color: var(--muted); }

        """

    private static let script = """
        (function () {
          'use strict';
          var data = JSON.parse(document.getElementById('report-data').textContent);
          var BLUR = { s: 'sharp', b: 'blurry' }, EXPOSURE = { u: 'usable', d: 'too_dark', o: 'overexposed' };
          var labels = {};
          try { labels = JSON.parse(localStorage.getItem(data.id) || '{}') || {}; } catch (error) { labels = {}; }
          var params = hashParams();
          if (params.labels) {
            params.labels.split(',').forEach(function (pair) {
              var parts = pair.split(':'), photo = data.photos[+parts[0]];
              if (!photo) return;
              (parts[1] || '').split('').forEach(function (key) { apply(photo.path, key); });
            });
          }
          var current = 0, cards = [];

          function apply(path, key) {
            var entry = labels[path] || {};
            if (BLUR[key]) entry.blur = BLUR[key];
            else if (EXPOSURE[key]) entry.exposure = EXPOSURE[key];
            else if (key === 'x') entry = {};
            if (entry.blur || entry.exposure) labels[path] = entry; else delete labels[path];
          }
          function save() {
            try { localStorage.setItem(data.id, JSON.stringify(labels)); } catch (error) { /* file:// may forbid storage: downloads still work */ }
          }
          function csvField(text) { return /[",\\n\\r]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text; }
          function manifest(kind) {
            var lines = [kind === 'blur' ? 'path,label,photo_type' : 'path,label'];
            data.photos.forEach(function (photo) {
              var entry = labels[photo.path];
              if (!entry || !entry[kind]) return;
              var fields = [photo.path, entry[kind]];
              if (kind === 'blur') fields.push(photo.type);
              lines.push(fields.map(csvField).join(','));
            });
            return lines.join('\\n') + '\\n';
          }
          function download(kind) {
            var blob = new Blob([manifest(kind)], { type: 'text/csv' });
            var link = el('a');
            link.href = URL.createObjectURL(blob);
            link.download = kind + '.csv';
            document.body.appendChild(link);
            link.click();
            setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
          }
          function refresh(index) {
            var photo = data.photos[index], card = cards[index], entry = labels[photo.path] || {};
            var box = card.querySelector('.labels');
            box.textContent = '';
            if (entry.blur) box.appendChild(el('span', 'pill ' + (entry.blur === 'sharp' ? 'good' : 'bad'), entry.blur));
            if (entry.exposure) box.appendChild(el('span', 'pill ' + (entry.exposure === 'usable' ? 'good' : 'bad'), entry.exposure));
            card.classList.toggle('labelled', !!(entry.blur || entry.exposure));
            card.dataset.blur = entry.blur || '';
            card.dataset.exposure = entry.exposure || '';
          }
          function tally() {
            var counts = {};
            Object.keys(labels).forEach(function (path) {
              var entry = labels[path];
              if (entry.blur) counts[entry.blur] = (counts[entry.blur] || 0) + 1;
              if (entry.exposure) counts[entry.exposure] = (counts[entry.exposure] || 0) + 1;
            });
            var text = Object.keys(counts).sort().map(function (k) { return k + ' ' + counts[k]; }).join(' · ');
            document.getElementById('tally').textContent = Object.keys(labels).length + ' of ' + data.photos.length + ' labelled' + (text ? ': ' + text : '');
            document.getElementById('blur-csv').textContent = manifest('blur');
            document.getElementById('exposure-csv').textContent = manifest('exposure');
          }
          function select(index) {
            if (index < 0 || index >= cards.length) return;
            if (cards[current]) cards[current].classList.remove('current');
            current = index;
            cards[current].classList.add('current');
            cards[current].scrollIntoView({ block: 'nearest' });
          }
          function zoom(show) {
            var box = document.getElementById('zoom');
            box.textContent = '';
            box.hidden = !show;
            if (!show) return;
            var photo = data.photos[current];
            if (photo.large) { var img = el('img'); img.src = photo.large; img.alt = photo.path; box.appendChild(img); }
            else box.appendChild(el('p', null, 'This photo did not decode.'));
            box.appendChild(el('div', 'path', photo.path));
            var entry = labels[photo.path] || {};
            box.appendChild(el('div', null, [entry.blur, entry.exposure].filter(Boolean).join(' · ') || 'not labelled'));
          }

          var controls = document.getElementById('controls');
          var blurButton = el('button', null, 'Save blur.csv'), exposureButton = el('button', null, 'Save exposure.csv');
          blurButton.addEventListener('click', function () { download('blur'); });
          exposureButton.addEventListener('click', function () { download('exposure'); });
          var clear = el('button', null, 'Forget all labels');
          clear.addEventListener('click', function () {
            if (!confirm('Forget every label on this page?')) return;
            labels = {}; save(); cards.forEach(function (_, i) { refresh(i); }); tally();
          });
          controls.appendChild(blurButton); controls.appendChild(exposureButton); controls.appendChild(clear);
          controls.appendChild(el('span', 'tally')).id = 'tally';

          var grid = document.getElementById('grid');
          data.photos.forEach(function (photo, index) {
            var card = el('figure', 'card');
            card.tabIndex = -1;
            card.dataset.index = index;
            if (photo.thumb) {
              var img = el('img', 'thumb'); img.loading = 'lazy'; img.alt = photo.path; img.src = photo.thumb; card.appendChild(img);
            } else {
              card.appendChild(el('div', 'nothumb', 'did not decode'));
            }
            var caption = el('figcaption');
            caption.appendChild(el('span', 'path', photo.path));
            caption.appendChild(el('span', 'meta', (photo.width ? photo.width + '×' + photo.height + ' · ' : '') + photo.type + ' · now ' + photo.verdict));
            caption.appendChild(el('span', 'labels'));
            card.appendChild(caption);
            card.addEventListener('click', function () { select(index); });
            card.addEventListener('dblclick', function () { select(index); zoom(true); });
            grid.appendChild(card);
            cards.push(card);
            refresh(index);
          });
          var previews = el('details');
          previews.appendChild(el('summary', null, 'The manifests as they stand'));
          previews.appendChild(el('pre')).id = 'blur-csv';
          previews.appendChild(el('pre')).id = 'exposure-csv';
          document.body.insertBefore(previews, document.getElementById('zoom'));
          tally();
          if (cards.length) select(0);

          document.addEventListener('keydown', function (event) {
            if (event.ctrlKey || event.metaKey || event.altKey) return;
            var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
            var zoomed = !document.getElementById('zoom').hidden;
            if (key === 'ArrowRight' || key === 'k') { select(current + 1); if (zoomed) zoom(true); }
            else if (key === 'ArrowLeft' || key === 'j') { select(current - 1); if (zoomed) zoom(true); }
            else if (key === 'Enter' || key === 'z') zoom(!zoomed || key === 'Enter');
            else if (key === 'Escape') zoom(false);
            else if (BLUR[key] || EXPOSURE[key] || key === 'x') {
              apply(data.photos[current].path, key); save(); refresh(current); tally();
              if (zoomed) zoom(true);
            } else return;
            event.preventDefault();
          });
          ready('Ready: ' + data.photos.length + ' photos');
        })();

        """
}
