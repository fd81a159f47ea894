/* A typed name as the server compares names (app/core/names.py: name_key), asked of public.name_key_of: the
   search boxes (static/poll.js, static/round_live.js) match it against the keys the server put on the rows, and
   no name is folded in JavaScript. window.sassNameKey(url, text) -> a Promise of the key; each answer is kept
   for the page's life (and by the browser for a day). */
(function () {
  "use strict";
  var known = {};
  window.sassNameKey = function (url, text) {
    if (!Object.prototype.hasOwnProperty.call(known, text)) {
      known[text] = fetch(url + "?q=" + encodeURIComponent(text), { headers: { "Accept": "application/json" } })
        .then(function (r) {
          if (!r.ok) { throw new Error("name key: " + r.status); }
          return r.json();
        })
        .then(function (answer) { return answer.key; })
        .catch(function (error) { delete known[text]; throw error; });  /* asked again next time */
    }
    return known[text];
  };
})();
