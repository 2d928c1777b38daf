// What every food widget shares, inlined into each one by app.py (a widget is one self-contained HTML
// file: ChatGPT caches it at registration and loads nothing else).
//
// The Apps SDK host gives the tool's structuredContent as window.openai.toolOutput and the result's
// widget-only _meta as window.openai.toolResponseMetadata; a failure's envelope is in
// _meta["toolclause/error"].  followHost renders now and again whenever the host's globals change.
function followHost(render) {
  const host = window.openai || {};
  render(host.toolOutput, host.toolResponseMetadata);
  window.addEventListener("openai:set_globals", (e) => {
    const g = e.detail.globals;
    render(g.toolOutput !== undefined ? g.toolOutput : host.toolOutput,
           g.toolResponseMetadata !== undefined ? g.toolResponseMetadata : host.toolResponseMetadata);
  });
  document.body.dataset.ready = "true";
}

// The error state (never shown as "nothing found", seed 002's mistake 6): the message, and the retry
// hint only when the failure is retryable.  Elements: #error, #error-message, #error-retry.
function showError(envelope, what) {
  document.getElementById("error").hidden = false;
  document.getElementById("error-message").textContent = `${what}: ${envelope.error.message}`;
  document.getElementById("error-retry").hidden = !envelope.error.retryable;
}
