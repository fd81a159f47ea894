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

  /* <button data-print>: print the page (the print styles leave navigation and buttons off the paper). */
  Array.prototype.forEach.call(document.querySelectorAll("[data-print]"), function (button) {
    button.addEventListener("click", function () { window.print(); });
  });

  /* <select name=format> with <fieldset class="format-only" data-formats="single double">: show only the chosen
     format's settings (all stay in the page without JavaScript); the server says which formats each is for. */
  var select = document.querySelector("select[name=format]");
  if (select) {
    var sync = function () {
      Array.prototype.forEach.call(document.querySelectorAll(".format-only"), function (box) {
        box.hidden = box.getAttribute("data-formats").split(" ").indexOf(select.value) < 0;
      });
    };
    select.addEventListener("change", sync);
    sync();
  }
})();
