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
  lintTimer: 0, sideTimer: 0, last: null, sideRequest: 0,
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

// ------------------------------------------------------------------ the editor's gutter and highlights

function lineCount(text) { let n = 1; for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++; return n; }

function paintGutter(marks) {
  const gutter = $("gutter");
  const count = lineCount($("editor").value);
  const numbers = [];
  for (let i = 1; i <= count; i++) numbers.push(i);
  gutter.textContent = numbers.join("\n");
  const backdrop = el("div", { id: "backdrop-lines" }); // moved as the editor scrolls, clipped by #backdrop
  $("backdrop").replaceChildren(backdrop);
  const lh = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--lh")) || 20;
  const pad = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--pad")) || 8;
  for (const [line, mark] of marks) {
    const top = pad + (line - 1) * lh;
    gutter.append(el("span", { class: `mark sev-${mark.severity}`, style: { top: `${top}px` }, text: MARK[mark.severity],
                               dataset: { line: String(line) }, title: mark.title }));
    backdrop.append(el("div", { class: `hl sev-${mark.severity}`, style: { top: `${top}px` }, dataset: { line: String(line) } }));
  }
  syncScroll();
}

function syncScroll() {
  const editor = $("editor");
  $("gutter").scrollTop = editor.scrollTop;
  const lines = $("backdrop-lines");
  if (lines) lines.style.transform = `translate(${-editor.scrollLeft}px, ${-editor.scrollTop}px)`;
}

function goToLine(line, column) {
  const editor = $("editor");
  const lines = editor.value.split("\n");
  let start = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) start += lines[i].length + 1;
  const length = (lines[line - 1] || "").length;
  const at = Math.min(start + Math.max((column || 1) - 1, 0), start + length);
  editor.focus();
  editor.setSelectionRange(at, start + length);
  const lh = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--lh")) || 20;
  editor.scrollTop = Math.max(0, (line - 4) * lh);
  syncScroll();
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
  const list = $("findings");
  list.textContent = "";
  const marks = new Map();
  const mark = (line, severity, title) => {
    if (!line) return;
    const old = marks.get(line);
    if (!old || RANK[severity] > RANK[old.severity]) marks.set(line, { severity, title });
  };
  for (const problem of result.unreadable) {
    const line = unreadableLine(problem);
    mark(line, "unreadable", problem.message);
    list.append(el("li", { class: "finding sev-unreadable", dataset: { line: String(line || ""), code: "unreadable" } },
      el("div", { class: "head" },
        line ? el("button", { type: "button", class: "goto", text: `Line ${line}`, onclick: () => goToLine(line, 1) }) : null,
        el("span", { class: "sev", text: SEVERITY.unreadable })),
      el("p", { class: "message", text: problem.message })));
  }
  for (const d of result.diagnostics) {
    mark(d.line, d.severity, `${d.code} ${d.message}`);
    list.append(findingItem(d));
  }
  const { error, warning, info } = result.summary;
  $("summary").textContent = result.diagnostics.length || result.unreadable.length
    ? `${error} error${error === 1 ? "" : "s"}, ${warning} warning${warning === 1 ? "" : "s"}, ${info} info` +
      (result.unreadable.length ? `; ${result.unreadable.length} unreadable` : "")
    : "";
  if (!result.diagnostics.length && !result.unreadable.length) {
    list.append(el("li", { class: "empty", text: result.tools.length ? "✓ No findings." : "Nothing to check yet." }));
  }
  $("fix-all").disabled = !result.diagnostics.some((d) => d.fixable);
  paintGutter(marks);
}

function findingItem(d) {
  const where = d.line ? `Line ${d.line}${d.column ? `:${d.column}` : ""}` : "No line";
  const fix = d.fix ? el("p", { class: "fix" },
    "Fix: ", d.fix.description, " ",
    d.fixable
      ? el("button", { type: "button", class: "apply", text: "Apply fix", "aria-label": `Apply fix: ${d.fix.description}`,
                       onclick: () => applyFixes([d.key]) })
      : el("span", { class: "fix-kind", text: "(needs your judgement: not applied automatically)" })) : null;
  return el("li", { class: `finding sev-${d.severity}`, dataset: { line: String(d.line || ""), code: d.code, key: d.key } },
    el("div", { class: "head" },
      el("button", { type: "button", class: "goto", text: where, "aria-label": `Go to ${where}`,
                     onclick: () => goToLine(d.line, d.column) }),
      el("span", { class: "sev", text: SEVERITY[d.severity] }),
      el("button", { type: "button", class: "code", text: d.code, title: `Documentation of ${d.code} (${d.name})`,
                     "aria-label": `Documentation of ${d.code} ${d.name}`, onclick: () => showRule(d.code) }),
      d.tool ? el("span", { class: "tool", text: d.tool }) : null),
    el("p", { class: "message", text: d.message }),
    fix);
}

async function applyFixes(keys) {
  try {
    const result = await call("/api/fix", { ...source(), keys });
    if (result.changed) {
      replaceText(result.text);
      say(`Applied ${result.applied.length} fix${result.applied.length === 1 ? "" : "es"}` +
          (state.file ? " (not saved: press Save to write the file)" : ""));
    } else {
      say(result.message || (result.skipped[0] ? `Not applied: ${result.skipped[0].reason}` : "Nothing changed"));
    }
    await runLint();
  } catch (error) {
    say(`Could not fix: ${error.message}`);
  }
}

function replaceText(text) {
  const editor = $("editor");
  const { scrollTop } = editor;
  editor.value = text;
  editor.scrollTop = scrollTop;
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
  editor.addEventListener("input", () => { updateDirty(); scheduleLint(); });
  editor.addEventListener("scroll", syncScroll);
  editor.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); scheduleLint(0); }
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
