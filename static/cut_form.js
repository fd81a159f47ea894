/* The cut form's preview (templates/cut/create.html): the first N eligible players, N the chosen size, skipping
   those ticked as declined, so the TO sees who is seeded before creating the cut. */
(function () {
  "use strict";
  var box = document.querySelector("[data-cut-preview]");
  var size = document.querySelector("select[name=size]");
  if (!box || !size) { return; }
  var items = box.querySelectorAll("li[data-player]");
  var boxes = document.querySelectorAll("input[name=exclude]");

  function update() {
    var n = parseInt(size.value, 10);
    var declined = {};
    Array.prototype.forEach.call(boxes, function (b) { if (b.checked) { declined[b.value] = true; } });
    var shown = 0;
    Array.prototype.forEach.call(items, function (li) {
      var show = !declined[li.getAttribute("data-player")] && shown < n;
      li.hidden = !show;
      if (show) { shown += 1; }
    });
    Array.prototype.forEach.call(box.querySelectorAll("[data-cut-size]"), function (el) { el.textContent = n; });
    box.querySelector("[data-cut-count]").textContent = shown;
    box.querySelector("[data-cut-short]").hidden = shown >= n;
  }

  size.addEventListener("change", update);
  Array.prototype.forEach.call(boxes, function (b) { b.addEventListener("change", update); });
  update();
})();
