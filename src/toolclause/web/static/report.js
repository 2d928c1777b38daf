// toolclause's HTML lint report: optional filtering (the page reads and prints the same without it).
"use strict";
(function () {
  const filters = document.querySelector(".filters");
  if (!filters) return;
  filters.hidden = false;
  const boxes = [...filters.querySelectorAll("input[type=checkbox]")];
  const search = document.getElementById("filter");
  function apply() {
    const shown = new Set(boxes.filter((box) => box.checked).map((box) => box.value));
    const words = search.value.trim().toLowerCase();
    for (const item of document.querySelectorAll(".finding")) {
      const visible = shown.has(item.dataset.severity) &&
        (!words || (item.closest(".tool").textContent || "").toLowerCase().includes(words));
      item.hidden = !visible;
    }
    for (const section of document.querySelectorAll("section.tool, section.file")) {
      section.hidden = !section.querySelector(".finding:not([hidden])");
    }
  }
  boxes.forEach((box) => box.addEventListener("change", apply));
  search.addEventListener("input", apply);
})();
