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

// -------------------------------------------------------------------------------------------------
// Forms marked data-validate (the freight form): each field with data-check is checked as the user
// types and again on submit, with the same rules the server applies (src/kernel/locale.ts), and its
// problem is shown next to it in the page's language (the messages come from the form's data-msg-*
// attributes). Without this script the server checks the same and shows the same messages.
(function () {
  'use strict';

  // "1.745,50" (German), "1,745.50" (English), "12,5", "1 250": the plain decimal, or null.
  function readDecimal(text, lang) {
    var s = String(text).trim().replace(/[\s\u00a0\u202f']/g, '');
    if (!s) return null;
    s = s.replace(/^[-+]/, '');
    var comma = s.lastIndexOf(',');
    var dot = s.lastIndexOf('.');
    var out;
    if (comma >= 0 && dot >= 0) {
      var decimal = comma > dot ? ',' : '.';
      out = s.split(decimal === ',' ? '.' : ',').join('').replace(decimal, '.');
    } else if (comma >= 0 || dot >= 0) {
      var mark = comma >= 0 ? ',' : '.';
      var grouped = new RegExp('^\\d{1,3}(\\' + mark + '\\d{3})+$').test(s);
      var groupsWithMark = (lang === 'deu' && mark === '.') || (lang !== 'deu' && mark === ',');
      out = grouped && (groupsWithMark || s.split(mark).length > 2) ? s.split(mark).join('') : s.replace(mark, '.');
    } else out = s;
    return /^(\d+(\.\d+)?|\.\d+)$/.test(out) ? out : null;
  }

  function readWeight(text, lang) {
    var m = /^(.*?)\s*(kg|t|to|tonnen|tons?|tonnes?)?\.?$/i.exec(String(text).trim());
    return m ? readDecimal(m[1], lang) : null;
  }

  function problemOf(input, form) {
    var check = input.getAttribute('data-check');
    var value = input.value;
    var lang = form.getAttribute('data-lang');
    var msg = function (name) { return form.getAttribute('data-msg-' + name) || ''; };
    if (check === 'datetime') {
      if (input.validity && input.validity.badInput) return msg('datetime');
      if (!value) return '';
      var after = input.getAttribute('data-after');
      var start = after ? document.getElementById(after) : null;
      if (start && start.value && value < start.value) return msg('end');
      return '';
    }
    if (!value.trim()) return '';
    if (check === 'weight') return readWeight(value, lang) === null ? msg('weight') : '';
    if (check === 'number') return readDecimal(value, lang) === null ? msg('number') : '';
    if (check === 'integer') return /^\s*\d{1,7}\s*$/.test(value) ? '' : msg('integer');
    return '';
  }

  function show(input, problem) {
    var box = document.querySelector('[data-error-for="' + input.id + '"]');
    var field = input.closest('.field');
    if (box) box.textContent = problem;
    if (field) field.classList.toggle('invalid', !!problem);
    if (problem) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  function checkField(input) {
    var form = input.form;
    if (!form || !form.hasAttribute('data-validate') || !input.hasAttribute('data-check')) return '';
    var problem = problemOf(input, form);
    show(input, problem);
    return problem;
  }

  document.addEventListener('input', function (event) {
    var input = event.target;
    if (input && input.matches && input.matches('[data-validate] [data-check]')) checkField(input);
  });
  document.addEventListener('change', function (event) {
    var input = event.target;
    if (input && input.matches && input.matches('[data-validate] [data-check]')) checkField(input);
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form || !form.hasAttribute || !form.hasAttribute('data-validate')) return;
    var first = null;
    Array.prototype.forEach.call(form.querySelectorAll('[data-check]'), function (input) {
      if (checkField(input) && !first) first = input;
    });
    if (first) {
      event.preventDefault();
      first.focus();
    }
  });

  // "Add a piece line": a copy of the last line with the next index and empty values.
  Array.prototype.forEach.call(document.querySelectorAll('[data-add-piece]'), function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var lines = button.parentNode.querySelectorAll('[data-piece-line]');
      var last = lines[lines.length - 1];
      if (!last || lines.length >= 500) return;
      var from = Number(last.getAttribute('data-piece-line'));
      var to = from + 1;
      var copy = last.cloneNode(true);
      copy.setAttribute('data-piece-line', String(to));
      var swap = function (text) { return text.split('pieces[' + from + ']').join('pieces[' + to + ']').split('pieces-' + from + '-').join('pieces-' + to + '-'); };
      Array.prototype.forEach.call(copy.querySelectorAll('[name],[id],[for],[aria-describedby],[data-error-for]'), function (el) {
        ['name', 'id', 'for', 'aria-describedby', 'data-error-for'].forEach(function (attr) {
          if (el.hasAttribute(attr)) el.setAttribute(attr, swap(el.getAttribute(attr)));
        });
        if (el.matches('input')) el.value = '';
        if (el.matches('[data-error-for]')) el.textContent = '';
      });
      Array.prototype.forEach.call(copy.querySelectorAll('.invalid'), function (el) { el.classList.remove('invalid'); });
      last.insertAdjacentElement('afterend', copy);
      var firstInput = copy.querySelector('input');
      if (firstInput) firstInput.focus();
    });
  });
})();
