// Progressive enhancement only: every page works without this file.
// Location autocomplete: inputs marked data-autocomplete="location" get suggestions of airports
// (code, name, city) and postal areas known to the exchange, from the rate-search API.
(function () {
  'use strict';
  var timer = null;
  function suggest(input) {
    var list = document.getElementById(input.getAttribute('list'));
    var q = input.value.trim().replace(/^(airport|city):/i, '');
    if (!list || q.length < 2) return;
    var types = ['airport', 'city'];
    Promise.all(types.map(function (type) {
      return fetch('/pricing/search/location/' + encodeURIComponent(q) + '/' + type + '.json', { credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.json() : { data: {} }; })
        .then(function (body) { return (body.data && body.data.locations) || []; })
        .catch(function () { return []; });
    })).then(function (groups) {
      list.textContent = '';
      groups.forEach(function (locations) {
        locations.forEach(function (loc) {
          var option = document.createElement('option');
          option.value = loc.value;
          option.label = loc.label;
          list.appendChild(option);
        });
      });
    });
  }
  document.addEventListener('input', function (event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches('input[data-autocomplete="location"]')) return;
    clearTimeout(timer);
    timer = setTimeout(function () { suggest(input); }, 200);
  });
})();
