/* Behaviour every page may use, loaded by base.html. The Content-Security-Policy allows scripts from our own
   files only (no inline <script>, no onclick= attributes): a page asks for behaviour with data- attributes. */
(function () {
  "use strict";

  /* <form data-confirm="Delete round 3?">: ask before sending. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { event.preventDefault(); }
  });

  /* <select name=format> with <fieldset class="format-only" data-format="single">: show only the chosen
     format's settings (all stay in the page without JavaScript). */
  var select = document.querySelector("select[name=format]");
  if (select) {
    var sync = function () {
      Array.prototype.forEach.call(document.querySelectorAll(".format-only"), function (box) {
        box.hidden = box.getAttribute("data-format") !== select.value;
      });
    };
    select.addEventListener("change", sync);
    sync();
  }
})();
