// toolclause playground: vanilla JavaScript, no build step, talks only to the server that served it.
"use strict";

const $ = (id) => document.getElementById(id);
const SEVERITY = { error: "✖ error", warning: "▲ warning", info: "ℹ info", unreadable: "✖ unreadable" };
const MARK = { error: "✖", warning: "▲", info: "ℹ", unreadable: "✖" };
const RANK = { unreadable: 3, error: 3, warning: 2, info: 1 };
const LINT_DELAY_MS = 120;
const EXAMPLE = `{
  "type": "function",
  "function": {
    "name": "get_weather",
    "description": "Current weather for one city, in Celsius. Not for forecasts.",
    "parameters": {
      "type": "object",
      "properties": {
        "city": {"type": "str", "description": "City name, e.g. Paris"}
      },
      "required": ["citty"]
    }
  }
}
`;

const state = {
  meta: null, name: "", file: null, savedText: null, revision: 0, shown: 0,
  lintTimer: 0, sideTimer: 0, last: null, sideRequest: 0, byLine: new Map(), cursorLine: 0, typedAt: 0,
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style") Object.assign(node.style, value); // CSSOM, which the page's CSP allows
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

async function call(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

function say(text) { $("status").textContent = text; }

function selectedTargets() {
  return [...document.querySelectorAll("#targets input:checked")].map((box) => box.value);
}

function source() { return { text: $("editor").value, name: state.name, targets: selectedTargets() }; }

// ------------------------------------------------------------------ the editor: findings inline, at their lines
//
// The textarea is transparent and sits over a backdrop that scrolls with it: each line with a
// finding is highlighted there, and after the line's own text (an invisible copy of it keeps
// the place) comes the finding's symbol, code, message and fix. The gutter beside it numbers
// the lines and marks them. The findings of the line the cursor is on are spelled out under the
// editor, with their buttons: Tab reaches them from the editor, F8 / Shift+F8 move the cursor
// to the next / previous finding, Ctrl+. applies the safe fixes of the cursor's line.

function lineCount(text) { let n = 1; for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++; return n; }

function cssPixels(name, fallback) {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || fallback;
}

// what is said of one finding inline, after its line: symbol, code, message, fix (never colour alone)
function lensText(item) {
  const head = `${MARK[item.severity]} ${item.code === "unreadable" ? "unreadable" : item.code} ${item.message}`;
  return item.fix ? `${head} — Fix: ${item.fix.description}` : head;
}

function paintEditor() {
  const editor = $("editor");
  const lines = editor.value.split("\n");
  const gutter = $("gutter");
  const numbers = [];
  for (let i = 1; i <= lines.length; i++) numbers.push(i);
  gutter.textContent = numbers.join("\n");
  const backdrop = el("div", { id: "backdrop-lines" }); // moved as the editor scrolls, clipped by #backdrop
  $("backdrop").replaceChildren(backdrop);
  const lh = cssPixels("--lh", 20);
  const pad = cssPixels("--pad", 8);
  for (const [line, items] of state.byLine) {
    const worst = items[0].severity;
    const top = pad + (line - 1) * lh;
    const more = items.length > 1 ? `  (+${items.length - 1} more)` : "";
    gutter.append(el("span", { class: `mark sev-${worst}`, style: { top: `${top}px` }, text: MARK[worst],
                               dataset: { line: String(line) }, title: items.map(lensText).join("\n"),
                               onclick: () => goToLine(line, items[0].column) }));
    backdrop.append(el("div", { class: `hl sev-${worst}`, style: { top: `${top}px` }, dataset: { line: String(line) } },
      el("span", { class: "ghost", text: lines[line - 1] ?? "" }),
      el("span", { class: "lens", text: `${lensText(items[0])}${more}` })));
  }
  syncScroll();
}

// while typing, the invisible copies follow the text, so a message never sits on what is typed
function refreshGhosts() {
  const lines = $("editor").value.split("\n");
  for (const hl of document.querySelectorAll("#backdrop .hl")) {
    hl.firstChild.textContent = lines[Number(hl.dataset.line) - 1] ?? "";
  }
}

function syncScroll() {
  const editor = $("editor");
  $("gutter").scrollTop = editor.scrollTop;
  const lines = $("backdrop-lines");
  if (lines) lines.style.transform = `translate(${-editor.scrollLeft}px, ${-editor.scrollTop}px)`;
}

function cursorLine() {
  const editor = $("editor");
  return lineCount(editor.value.slice(0, editor.selectionStart));
}

function goToLine(line, column) {
  const editor = $("editor");
  const lines = editor.value.split("\n");
  let start = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) start += lines[i].length + 1;
  const length = (lines[line - 1] || "").length;
  const at = Math.min(start + Math.max((column || 1) - 1, 0), start + length);
  editor.focus();
  editor.setSelectionRange(at, at);
  const lh = cssPixels("--lh", 20);
  const top = (line - 1) * lh;
  if (top < editor.scrollTop || top > editor.scrollTop + editor.clientHeight - 3 * lh) {
    editor.scrollTop = Math.max(0, (line - 4) * lh);
  }
  syncScroll();
  renderCursor();
}

// F8 / Shift+F8: the next / previous line with a finding, wrapping around
function nextFinding(step) {
  const lines = [...state.byLine.keys()].sort((a, b) => a - b);
  if (!lines.length) { say("No findings to move to."); return; }
  const here = cursorLine();
  const target = step > 0 ? (lines.find((l) => l > here) ?? lines[0])
                          : ([...lines].reverse().find((l) => l < here) ?? lines[lines.length - 1]);
  goToLine(target, state.byLine.get(target)[0].column);
}

// the findings of the cursor's line, in full, with their buttons
function renderCursor(force = false) {
  const line = cursorLine();
  if (!force && line === state.cursorLine) return;
  state.cursorLine = line;
  const box = $("at-cursor");
  const items = state.byLine.get(line) || [];
  box.dataset.line = String(line);
  const total = [...state.byLine.values()].reduce((n, list) => n + list.length, 0);
  if (!items.length) {
    // not read out: a screen reader hears this box only when the cursor reaches a line with findings
    box.replaceChildren(el("p", { class: "muted", "aria-hidden": "true", text: total
      ? `Line ${line}: no findings. F8 moves to the next finding (${total} in all).`
      : `Line ${line}: no findings.` }));
    return;
  }
  box.replaceChildren(el("p", { class: "at-line", text: `Line ${line}: ${items.length} finding${items.length === 1 ? "" : "s"}` }),
    el("ul", {}, items.map((item) => findingDetail(item, "li", { inline: true }))));
}

function applyAtCursor() {
  const keys = (state.byLine.get(cursorLine()) || []).filter((d) => d.fixable).map((d) => d.key);
  if (keys.length) applyFixes(keys);
  else say(`No safe fix on line ${cursorLine()}.`);
}

// ------------------------------------------------------------------ linting

function scheduleLint(delay = LINT_DELAY_MS) {
  clearTimeout(state.lintTimer);
  state.lintTimer = setTimeout(runLint, delay);
}

async function runLint() {
  const revision = ++state.revision;
  const started = performance.now();
  const asked = source();
  const limit = state.meta.max_text_chars;
  if (asked.text.length > limit) { // refused here, as the server would: never sent
    say(`Not checked: the definition is ${asked.text.length.toLocaleString("en")} characters; the playground ` +
        `checks at most ${limit.toLocaleString("en")}: check a file that large with \`toolclause lint FILE\``);
    document.body.dataset.linted = "too-large";
    state.shown = revision;
    clearFindings("Not checked: too large for the playground.");
    return;
  }
  let result;
  try {
    result = await call("/api/lint", { ...asked, seq: revision }); // the server echoes seq with its answer
  } catch (error) {
    if (revision >= state.shown) say(`Could not check: ${error.message}`);
    return;
  }
  if (result.seq < state.shown) return; // an older keystroke's answer arriving after a newer one's: dropped
  state.shown = result.seq;
  state.last = result;
  renderFindings(result);
  const ms = Math.round(performance.now() - started);
  // from the last keystroke to these findings on screen, the typing pause included
  if (state.typedAt) document.body.dataset.keystrokeMs = String(Math.round(performance.now() - state.typedAt));
  document.body.dataset.lintRevision = String(revision);
  // "current" when the findings are for the text now in the editor (tests and timing wait for it)
  document.body.dataset.linted = asked.text === $("editor").value ? "current" : "stale";
  say(`Checked ${result.tools.length} tool${result.tools.length === 1 ? "" : "s"} in ${ms} ms`);
  scheduleSide();
}

function unreadableLine(problem) {
  if (problem.line) return problem.line;
  const match = /line (\d+)/.exec(problem.message || "");
  return match ? Number(match[1]) : null;
}

function renderFindings(result) {
  $("format-name").textContent = result.format ? `${result.format} (${result.kind})` : (result.unreadable.length ? "unreadable" : "none yet");
  $("format").dataset.format = result.format || "";
  const items = [
    ...result.unreadable.map((u) => ({ ...u, severity: "unreadable", code: "unreadable", line: unreadableLine(u), fix: null })),
    ...result.diagnostics,
  ];
  state.byLine = new Map();
  for (const item of items) {
    if (!item.line) continue;
    if (!state.byLine.has(item.line)) state.byLine.set(item.line, []);
    state.byLine.get(item.line).push(item);
  }
  for (const list of state.byLine.values()) list.sort((a, b) => RANK[b.severity] - RANK[a.severity]);
  const list = $("findings");
  list.replaceChildren(...items.map((item) => findingDetail(item, "li")));
  const { error, warning, info } = result.summary;
  $("summary").textContent = items.length
    ? `${error} error${error === 1 ? "" : "s"}, ${warning} warning${warning === 1 ? "" : "s"}, ${info} info` +
      (result.unreadable.length ? `; ${result.unreadable.length} unreadable` : "")
    : "";
  if (!items.length) {
    list.append(el("li", { class: "empty", text: result.tools.length ? "✓ No findings." : "Nothing to check yet." }));
  }
  $("fix-all").disabled = !result.diagnostics.some((d) => d.fixable);
  paintEditor();
  renderCursor(true);
}

function clearFindings(message) {
  state.byLine = new Map();
  $("findings").replaceChildren(el("li", { class: "empty not-checked", text: message }));
  $("summary").textContent = "";
  $("fix-all").disabled = true;
  paintEditor();
  renderCursor(true);
}

// one finding: where, severity (symbol and word), code (its documentation), tool, message, fix
function findingDetail(d, tag, { inline = false } = {}) {
  const where = d.line ? `Line ${d.line}${d.column ? `:${d.column}` : ""}` : "No line";
  const isRule = d.code !== "unreadable";
  const fix = d.fix ? el("p", { class: "fix" },
    "Fix: ", d.fix.description, " ",
    d.fixable
      ? el("button", { type: "button", class: "apply", text: "Apply fix", "aria-label": `Apply fix: ${d.fix.description}`,
                       onclick: () => applyFixes([d.key]) })
      : el("span", { class: "fix-kind", text: "(needs your judgement: not applied automatically)" })) : null;
  return el(tag, { class: `finding sev-${d.severity}`, dataset: { line: String(d.line || ""), code: d.code, key: d.key } },
    el("div", { class: "head" },
      inline || !d.line ? null : el("button", { type: "button", class: "goto", text: where, "aria-label": `Go to ${where}`,
                                                onclick: () => goToLine(d.line, d.column) }),
      el("span", { class: "sev", text: SEVERITY[d.severity] }),
      isRule ? el("button", { type: "button", class: "code", text: d.code, title: `Documentation of ${d.code} (${d.name})`,
                              "aria-label": `Documentation of ${d.code} ${d.name}`, onclick: () => showRule(d.code) }) : null,
      d.tool ? el("span", { class: "tool", text: d.tool }) : null),
    el("p", { class: "message", text: d.message }),
    fix);
}

async function applyFixes(keys) {
  const fromEditor = $("at-cursor").contains(document.activeElement) || document.activeElement === $("editor");
  try {
    const result = await call("/api/fix", { ...source(), keys });
    if (result.changed) replaceText(result.text);
    await runLint();
    // said after the check, so it is what the status line keeps
    say(result.changed
      ? `Applied ${result.applied.length} fix${result.applied.length === 1 ? "" : "es"}` +
        (state.file ? " (not saved: press Save to write the file)" : "")
      : result.message || (result.skipped[0] ? `Not applied: ${result.skipped[0].reason}` : "Nothing changed"));
    if (fromEditor) $("editor").focus(); // the fix's button is gone: the keyboard goes back to the text
  } catch (error) {
    say(`Could not fix: ${error.message}`);
  }
}

function replaceText(text) {
  const editor = $("editor");
  const { scrollTop, scrollLeft, selectionStart } = editor;
  editor.value = text;
  editor.setSelectionRange(Math.min(selectionStart, text.length), Math.min(selectionStart, text.length));
  editor.scrollTop = scrollTop;
  editor.scrollLeft = scrollLeft;
  updateDirty();
}

// ------------------------------------------------------------------ the side pane: export, diff, rule docs

function currentTab() { return document.querySelector('[role="tab"][aria-selected="true"]').id; }

function selectTab(tab, focus = false) {
  for (const other of document.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  if (focus) tab.focus();
  scheduleSide(0);
}

function scheduleSide(delay = 60) {
  clearTimeout(state.sideTimer);
  state.sideTimer = setTimeout(() => {
    if (currentTab() === "tab-export") runExport();
    else if (currentTab() === "tab-diff") runDiff();
  }, delay);
}

async function runExport() {
  const target = $("export-target").value;
  const info = state.meta.export_targets.find((t) => t.name === target);
  $("export-strict").disabled = !info.strict;
  const strict = info.strict && $("export-strict").checked;
  const check = $("export-check");
  const request = ++state.sideRequest;
  try {
    const result = await call("/api/export", { text: $("editor").value, name: state.name, target, strict });
    if (request !== state.sideRequest) return; // a newer export or diff was asked for meanwhile
    $("export-output").textContent = result.output || result.message || "";
    $("export-output").dataset.target = `${target}${strict ? "-strict" : ""}`;
    const losses = $("export-losses");
    losses.textContent = "";
    for (const loss of result.losses) {
      losses.append(el("li", {}, el("code", { text: `${loss.tool} ${loss.pointer}` }), " — ", loss.lost));
    }
    if (!result.losses.length) losses.append(el("li", { class: "muted", text: result.output ? "Nothing: the export keeps every constraint." : "—" }));
    if (result.check) {
      const errors = result.check.errors;
      check.className = `check-line ${errors.length ? "bad" : "ok"}`;
      check.textContent = errors.length
        ? `✖ ${errors.length} problem${errors.length === 1 ? "" : "s"} for ${result.check.lint_target}: ` +
          errors.slice(0, 3).map((e) => `${e.code} ${e.message}`).join("; ")
        : `✓ Valid for ${result.check.lint_target}: the output passes its checks (${result.check.tools} tool${result.check.tools === 1 ? "" : "s"}).`;
      check.dataset.valid = String(!errors.length);
      check.dataset.target = `${target}${strict ? "-strict" : ""}`; // what the verdict is about
    } else {
      check.className = "check-line";
      check.textContent = result.output ? "" : (result.message || "");
      check.dataset.valid = "";
    }
  } catch (error) {
    check.className = "check-line bad";
    check.textContent = `Could not export: ${error.message}`;
  }
}

async function runDiff() {
  const old = $("diff-old").value;
  const summary = $("diff-summary");
  const list = $("diff-changes");
  if (!old.trim()) { list.textContent = ""; summary.textContent = "No earlier version yet."; return; }
  const request = ++state.sideRequest;
  try {
    const result = await call("/api/diff", { old, new: $("editor").value, new_name: state.name });
    if (request !== state.sideRequest) return;
    list.textContent = "";
    const breaking = result.changes.filter((c) => c.impact.startsWith("breaking")).length;
    summary.textContent = result.changes.length
      ? `${result.changes.length} change${result.changes.length === 1 ? "" : "s"} (${result.tools.old} → ${result.tools.new} tools); ` +
        (breaking ? `✖ ${breaking} breaking` : "✓ none breaking")
      : `No changes (${result.tools.old} → ${result.tools.new} tools).`;
    for (const change of result.changes) {
      list.append(el("li", { dataset: { impact: change.impact } },
        el("span", { class: "impact", text: `${change.impact.startsWith("breaking") ? "✖" : change.impact === "risky" ? "▲" : "✓"} ${change.impact}` }),
        " ", el("code", { text: change.tool || "" }), " ", change.message));
    }
    for (const problem of result.unreadable) list.append(el("li", { text: `✖ unreadable: ${problem.message}` }));
  } catch (error) {
    summary.textContent = `Could not compare: ${error.message}`;
  }
}

// a rule's documentation is Markdown-like text: paragraphs, ```fenced code``` and `inline code`
function renderMarkdown(body) {
  const out = [];
  const blocks = body.split(/```\w*\n?/);
  blocks.forEach((block, i) => {
    if (i % 2 === 1) { out.push(el("pre", { text: block.replace(/\n$/, "") })); return; }
    for (const para of block.split(/\n\s*\n/)) {
      if (!para.trim()) continue;
      const p = el("p");
      para.split(/(`[^`]+`)/).forEach((part) => {
        p.append(part.startsWith("`") && part.endsWith("`") && part.length > 1 ? el("code", { text: part.slice(1, -1) }) : part);
      });
      out.push(p);
    }
  });
  return out;
}

async function showRule(code) {
  $("rule-code").value = code;
  selectTab($("tab-rule"));
  const doc = $("rule-doc");
  try {
    const rule = await call(`/api/rules/${encodeURIComponent(code)}`);
    doc.textContent = "";
    doc.append(el("h2", { text: `${rule.code} ${rule.name}` }),
      el("p", { class: "muted", text: `severity: ${rule.severity} · fixable: ${rule.fixable ? "yes" : "no"} · targets: ${rule.targets.join(", ") || "every target"}` }));
    for (const section of rule.sections) doc.append(el("h3", { text: section.title }), ...renderMarkdown(section.body));
    doc.dataset.code = rule.code;
  } catch (error) {
    doc.textContent = `Could not load ${code}: ${error.message}`;
  }
}

// ------------------------------------------------------------------ files (when opened on a PATH)

function updateDirty() {
  if (!state.file) return;
  const dirty = $("editor").value !== state.savedText;
  $("save").disabled = !dirty;
  $("save-state").textContent = dirty ? "changed, not saved" : "saved";
}

async function openFile(path) {
  try {
    const file = await call(`/api/file?path=${encodeURIComponent(path)}`);
    state.file = file.path; state.name = file.path; state.savedText = file.text;
    $("editor").value = file.text;
    updateDirty();
    await runLint();
  } catch (error) {
    say(`Could not open ${path}: ${error.message}`);
  }
}

async function saveFile() {
  if (!state.file) return;
  const text = $("editor").value;
  try {
    await call("/api/save", { path: state.file, text });
    state.savedText = text;
    updateDirty();
    say(`Saved ${state.file}`);
  } catch (error) {
    say(`Could not save: ${error.message}`);
  }
}

function readDropped(file, then) {
  const reader = new FileReader();
  reader.onload = () => then(String(reader.result));
  reader.onerror = () => say(`Could not read ${file.name}`);
  reader.readAsText(file);
}

// ------------------------------------------------------------------ start

function buildControls(meta) {
  const targets = $("targets");
  for (const name of meta.lint_targets) {
    const id = `target-${name}`;
    const box = el("input", { type: "checkbox", id, value: name, checked: meta.configured_targets.includes(name) });
    box.addEventListener("change", () => scheduleLint(0));
    targets.append(el("label", { for: id }, box, name));
  }
  const exportTarget = $("export-target");
  for (const t of meta.export_targets) exportTarget.append(el("option", { value: t.name, text: t.name }));
  const rules = $("rule-code");
  for (const r of meta.rules) rules.append(el("option", { value: r.code, text: `${r.code} ${r.name}` }));
  if (meta.files.length) {
    $("files-box").hidden = false;
    for (const f of meta.files) $("files").append(el("option", { value: f, text: f }));
  }
}

function wire() {
  const editor = $("editor");
  editor.addEventListener("input", () => { state.typedAt = performance.now(); updateDirty(); refreshGhosts(); renderCursor(); scheduleLint(); });
  editor.addEventListener("scroll", syncScroll);
  for (const name of ["keyup", "click", "focus"]) editor.addEventListener(name, () => renderCursor());
  editor.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); scheduleLint(0); }
    if (event.key === "F8") { event.preventDefault(); nextFinding(event.shiftKey ? -1 : 1); }
    if (event.key === "." && (event.ctrlKey || event.metaKey)) { event.preventDefault(); applyAtCursor(); }
  });
  const box = $("editor-box");
  box.addEventListener("dragover", (event) => { event.preventDefault(); box.classList.add("dropping"); });
  box.addEventListener("dragleave", () => box.classList.remove("dropping"));
  box.addEventListener("drop", (event) => {
    event.preventDefault();
    box.classList.remove("dropping");
    const file = event.dataTransfer.files[0];
    if (file) readDropped(file, (text) => { state.name = file.name; replaceText(text); scheduleLint(0); });
  });
  $("fix-all").addEventListener("click", () => applyFixes("all"));
  $("load-example").addEventListener("click", () => { state.name = ""; replaceText(EXAMPLE); scheduleLint(0); });
  $("export-target").addEventListener("change", () => scheduleSide(0));
  $("export-strict").addEventListener("change", () => scheduleSide(0));
  $("diff-old").addEventListener("input", () => scheduleSide(150));
  $("diff-snapshot").addEventListener("click", () => { $("diff-old").value = editor.value; scheduleSide(0); });
  $("diff-file").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (file) readDropped(file, (text) => { $("diff-old").value = text; scheduleSide(0); });
  });
  $("rule-code").addEventListener("change", () => showRule($("rule-code").value));
  $("files").addEventListener("change", () => openFile($("files").value));
  $("save").addEventListener("click", saveFile);
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step) { event.preventDefault(); selectTab(tabs[(i + step + tabs.length) % tabs.length], true); }
      if (event.key === "Home") { event.preventDefault(); selectTab(tabs[0], true); }
      if (event.key === "End") { event.preventDefault(); selectTab(tabs[tabs.length - 1], true); }
    });
  });
}

async function start() {
  try {
    state.meta = await call("/api/meta");
  } catch (error) {
    say(`The playground server did not answer: ${error.message}`);
    return;
  }
  buildControls(state.meta);
  wire();
  if (state.meta.files.length) await openFile(state.meta.files[0]);
  else { say("Ready: paste a tool definition."); await runLint(); }
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
