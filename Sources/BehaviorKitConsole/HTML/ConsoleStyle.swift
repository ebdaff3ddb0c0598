/// The console's one stylesheet, served at `console.css` by the console itself.
enum ConsoleStyle {
    static let css = """
        :root { --fg: #1d232a; --muted: #5b6670; --line: #d8dee4; --bg: #f6f8fa; --accent: #2357c6;
          --ok: #1a7f37; --bad: #c0261d; --warn: #9a6700; --info: #6639ba; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
          background: #fff; }
        header { background: #1d232a; padding: 0 24px; }
        nav { display: flex; gap: 18px; align-items: center; height: 44px; }
        nav a { color: #d0d7de; text-decoration: none; }
        nav a:hover { color: #fff; }
        .brand { color: #fff; font-weight: 600; margin-right: 12px; }
        .badge { background: var(--warn); color: #fff; border-radius: 10px; padding: 1px 8px; font-size: 12px; }
        main { padding: 16px 24px 40px; max-width: 1280px; }
        h1 { font-size: 20px; margin: 8px 0 16px; overflow-wrap: anywhere; }
        h2 { font-size: 16px; margin: 24px 0 8px; }
        a { color: var(--accent); }
        table { border-collapse: collapse; width: 100%; margin-bottom: 8px; }
        th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top;
          overflow-wrap: anywhere; }
        th { background: var(--bg); font-weight: 600; color: var(--muted); font-size: 12px;
          text-transform: uppercase; letter-spacing: .03em; }
        td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
        .cards { display: flex; gap: 12px; flex-wrap: wrap; margin-bottom: 8px; }
        .card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 130px;
          color: inherit; text-decoration: none; }
        .card:hover { border-color: var(--accent); }
        .card .value { font-size: 24px; font-weight: 600; font-variant-numeric: tabular-nums; }
        .card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; }
        .status { border-radius: 10px; padding: 1px 8px; font-size: 12px; color: #fff; white-space: nowrap; }
        .status-pending { background: var(--accent); } .status-done { background: var(--ok); }
        .status-failed { background: var(--bad); } .status-compensated { background: var(--info); }
        .muted { color: var(--muted); }
        .error { color: var(--bad); white-space: pre-wrap; }
        .notice { background: #dafbe1; border: 1px solid #aceebb; padding: 8px 12px; border-radius: 6px; }
        pre { background: var(--bg); padding: 8px 10px; border-radius: 6px; white-space: pre-wrap;
          overflow-wrap: anywhere; margin: 4px 0; }
        form.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin-bottom: 12px; }
        form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
        input, select { font: inherit; padding: 4px 6px; border: 1px solid var(--line); border-radius: 4px; }
        button { font: inherit; padding: 4px 12px; border-radius: 4px; border: 1px solid var(--line);
          background: var(--bg); cursor: pointer; }
        button.danger { border-color: var(--bad); color: var(--bad); }
        form.action { display: inline-flex; gap: 6px; margin-right: 12px; }
        ol.timeline { list-style: none; padding-left: 0; border-left: 3px solid var(--line); margin-left: 8px; }
        ol.timeline li { position: relative; padding: 4px 0 12px 18px; }
        ol.timeline li::before { content: ""; position: absolute; left: -8px; top: 9px; width: 13px;
          height: 13px; border-radius: 50%; background: var(--line); }
        ol.timeline li.failed::before { background: var(--bad); }
        ol.timeline li.done::before { background: var(--ok); }
        ol.timeline li.pending::before { background: var(--accent); }
        ol.timeline li.compensated::before { background: var(--info); }
        .chart { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
        .state { border: 2px solid var(--line); border-radius: 10px; padding: 6px 10px; min-width: 110px;
          background: #fff; }
        .state.parallel > .chart { border-top: 1px dashed var(--line); padding-top: 6px; }
        .state.visited { border-color: #8fb1f0; background: #f0f5ff; }
        .state.current { border-color: var(--ok); background: #dafbe1; }
        .state .name { font-weight: 600; }
        .state ul { margin: 2px 0; padding-left: 16px; color: var(--muted); font-size: 12px; }
        .pager { display: flex; gap: 16px; margin-top: 8px; }
        .activity { display: flex; flex-wrap: wrap; gap: 16px 32px; }
        .activity-chart { margin: 0; }
        .activity-chart figcaption { font-size: 12px; margin-bottom: 4px; }
        .activity-axis { display: flex; justify-content: space-between; font-size: 11px; }
        .bar-done { fill: var(--ok); } .bar-failed { fill: var(--bad); } .mark-retried { fill: var(--warn); }
        .bar-pickup { fill: var(--accent); opacity: 0.6; } .mark-pickup { fill: var(--accent); }
        .pickup-caption { font-size: 12px; margin-top: 4px; }
        .axis { stroke: var(--line); }
        td.queue-state form.action { margin: 0 0 0 8px; }
        """
}
