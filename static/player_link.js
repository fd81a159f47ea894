/* The TO's player-link page: copy the link, print the slip. */
(function () {
  "use strict";
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var text = document.getElementById(button.getAttribute("data-copy")).textContent.trim();
      if (navigator.clipboard) {
        navigator.clipboard.writeText(text).then(function () { button.textContent = "Copied"; });
      }
    });
  });
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
