/// The page's inline style and script: no font, image or script is fetched.
enum ReportAssets {
    static let style = """
        :root{--ink:#1c1c1e;--mute:#6c6c70;--line:#d1d1d6;--accent:#007aff;--bad:#d70015;--warn:#fff4ce}
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.4 -apple-system,system-ui,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--ink);background:#f7f7f9}
        header,#failure,#timeline{padding:12px 20px;border-bottom:1px solid var(--line);background:#fff}
        h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0 0 8px}h3{font-size:13px;margin:14px 0 6px;color:var(--mute);text-transform:uppercase}
        .result{display:inline-block;font-weight:700;padding:2px 8px;border-radius:6px;margin:0 0 6px}
        .result.passed{background:#d6f5dd;color:#0a6b25}.result.failed{background:#ffe0e0;color:var(--bad)}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dt{color:var(--mute)}dd{margin:0}
        code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f0f0f3;padding:1px 4px;border-radius:4px;word-break:break-all}
        .broken{background:var(--warn);border-left:4px solid var(--bad);padding:6px 10px;font-weight:600}
        .chain li,.story li{font:12px ui-monospace,Menlo,Consolas,monospace;margin:2px 0}
        .chain .role{display:inline-block;min-width:110px;font-weight:700}
        .losing-write{background:#ffd6d6}.losing-write .role{color:var(--bad)}
        .last-write,.read{background:#fff0c2}.interleaved-write{background:#e4ecff}.fault{background:#ffe4f2}
        .lanes{position:relative}
        .lane{display:flex;align-items:center;border-top:1px solid #eee;min-height:22px}
        .lane-name{width:190px;flex:none;font:12px ui-monospace,Menlo,Consolas,monospace;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .track{position:relative;flex:1;height:20px;background:#fafafa}
        .track .span{position:absolute;top:2px;height:16px;min-width:2px;overflow:hidden;white-space:nowrap;font-size:10px;line-height:16px;padding:0 2px;border-radius:3px;color:#fff;background:#8e8e93}
        .span.step{background:#5856d6;cursor:pointer}.span.callback{background:#34c759}.span.intent{background:var(--accent)}
        .span.step[data-failing=true]{background:var(--bad)}.span.step.current{outline:2px solid #000}
        .track .mark{position:absolute;top:0;width:3px;height:20px;background:#ff9500}
        .mark.fault,.mark.jetsam,.mark.race,.mark.error{background:var(--bad)}
        .mark.shield,.mark.screen,.mark.delivery,.mark.notification,.mark.clock{width:2px;top:4px;height:12px}
        .mark.shield{background:#5856d6}.mark.screen{background:#8e8e93}.mark.delivery{background:#34c759}
        .mark.notification{background:#ff9500}.mark.clock{background:#c7c7cc}
        .degraded,.left-out{background:var(--warn);padding:4px 8px}
        .columns{display:flex;align-items:flex-start}
        #steps{width:320px;flex:none;padding:12px;position:sticky;top:0;max-height:100vh;overflow:auto}
        #steps ol{list-style:none;margin:0;padding:0}
        #steps li a{display:block;padding:3px 6px;border-radius:5px;color:inherit;text-decoration:none;font-size:12px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        #steps li.branch a{padding-left:20px}
        #steps li.selected a{background:var(--accent);color:#fff}
        #steps li[data-failing=true] a{border-left:4px solid var(--bad)}
        .path{font:12px ui-monospace,Menlo,Consolas,monospace;color:var(--mute)}li.selected .path{color:#fff}
        main{flex:1;padding:12px 20px;min-width:0}
        .meta{color:var(--mute);margin:0 0 8px}
        .frame-body{display:flex;gap:20px;align-items:flex-start}
        .screen{margin:0;flex:none;width:300px}.screen svg{width:300px;height:auto;display:block}
        .state{flex:1;min-width:0}
        table{border-collapse:collapse;width:100%;font:12px ui-monospace,Menlo,Consolas,monospace}
        td,th{border-bottom:1px solid #eee;padding:2px 6px;text-align:left;vertical-align:top;word-break:break-all}
        tr.suite th{background:#f0f0f3}
        tr.changed td{background:#fff0c2}tr.changed td.key{font-weight:700}
        .effects{list-style:none;padding:0;margin:0;font:12px ui-monospace,Menlo,Consolas,monospace}
        .effects li{display:flex;gap:8px;padding:1px 4px;border-bottom:1px solid #f2f2f2}
        .effects .seq{width:44px;color:var(--mute);text-align:right;flex:none}.effects .t{width:60px;flex:none;color:var(--mute)}
        .effects .actor{width:160px;flex:none;overflow:hidden;text-overflow:ellipsis}.effects .kind{width:150px;flex:none;font-weight:600}
        .effects .fields{word-break:break-all}
        .empty{color:var(--mute)}
        """

    /// Moves between steps: click a step or a step's span, ←/→ or j/k; the step is in the hash
    /// (`#step-3`). Ends by setting `data-ready` on the body: the script ran without throwing.
    static let script = """
        (function () {
          var frames = Array.prototype.slice.call(document.querySelectorAll("section.frame"));
          var items = Array.prototype.slice.call(document.querySelectorAll("#steps li[data-step]"));
          var spans = Array.prototype.slice.call(document.querySelectorAll(".span.step[data-frame]"));
          // byUser: a click or a key moved it: the hash follows (a reload or a shared link comes
          // back to the step) and the list scrolls to it. Opening the page writes no hash, and
          // no element's id is a step's hash (frames are `frame-N`): a fragment scroll on load
          // left headless Chromium's screenshot blank.
          function select(index, byUser) {
            if (frames.length === 0) return;
            index = Math.max(0, Math.min(frames.length - 1, index));
            frames.forEach(function (frame, i) { frame.hidden = i !== index; });
            items.forEach(function (item, i) { item.classList.toggle("selected", i === index); });
            spans.forEach(function (span) { span.classList.toggle("current", Number(span.dataset.frame) === index); });
            document.body.dataset.selected = String(index);
            if (byUser && location.hash !== "#step-" + index) {
              try { history.replaceState(null, "", "#step-" + index); } catch (e) { location.hash = "#step-" + index; }
            }
            if (byUser && items[index] && items[index].scrollIntoView) items[index].scrollIntoView({ block: "nearest" });
          }
          function current() { return Number(document.body.dataset.selected || 0); }
          function fromHash() {
            var match = /^#step-(\\d+)$/.exec(location.hash);
            if (match) select(Number(match[1]), false);
          }
          document.addEventListener("keydown", function (event) {
            if (event.altKey || event.ctrlKey || event.metaKey) return;
            if (event.key === "ArrowRight" || event.key === "j") { select(current() + 1, true); event.preventDefault(); }
            if (event.key === "ArrowLeft" || event.key === "k") { select(current() - 1, true); event.preventDefault(); }
          });
          items.forEach(function (item, i) {
            item.addEventListener("click", function (event) { event.preventDefault(); select(i, true); });
          });
          spans.forEach(function (span) {
            span.addEventListener("click", function () { select(Number(span.dataset.frame), true); });
          });
          window.addEventListener("hashchange", fromHash);
          fromHash();
          select(current(), false);
          document.body.dataset.ready = "1";
        })();
        """
}
