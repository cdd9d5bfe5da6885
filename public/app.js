// Progressive enhancement only: every page works without this file.
(function () {
  'use strict';

  // ---------------------------------------------------------------------------------------------
  // Places a person can type. Inputs marked data-place="filter|near|freight|rate" get suggestions
  // (countries, postal areas, airports, cities) from GET /places/suggest.json in a <datalist>;
  // each suggestion's value is what that input takes (docs/decisions.md, Load search). Picking a
  // city does more where the input needs coordinates rather than a name:
  // - list search "From"/"To": the city's lat,lon goes to the side's "Around" input;
  // - freight form: the city fills the side's country, address and coordinates, and the postal
  //   code is left to type; an airport clears them, so the server fills them from the airport.
  // The rate search form also lists the postal zones of rate sheets (pricing autocomplete).

  var timer = null;
  var seq = 0;
  var picks = {}; // input name -> { prefix, byValue: option value -> suggestion }

  function field(form, name) {
    return form && name ? form.querySelector('[name="' + name + '"]') : null;
  }

  function listFor(input) {
    var id = input.getAttribute('list');
    if (!id) {
      id = 'places-' + input.name.replace(/[^A-Za-z0-9_-]/g, '-');
      input.setAttribute('list', id);
    }
    var list = document.getElementById(id);
    if (!list) {
      list = document.createElement('datalist');
      list.id = id;
      input.insertAdjacentElement('afterend', list);
    }
    return list;
  }

  function getData(url) {
    return fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (r) {
        return r.ok ? r.json() : {};
      })
      .then(function (body) {
        return (body && body.data) || {};
      })
      .catch(function () {
        return {};
      });
  }

  // A freight form city has no postal code in the data: its option shows (and is) its name.
  function optionValue(mode, s) {
    return mode === 'freight' && s.kind === 'city' ? s.label : s.value;
  }

  function suggest(input) {
    var mode = input.getAttribute('data-place');
    var raw = input.value;
    var prefix = '';
    var q = raw;
    // The list search takes several places, comma separated: suggest for the last one.
    if (mode === 'filter' && raw.lastIndexOf(',') >= 0) {
      prefix = raw.slice(0, raw.lastIndexOf(',') + 1) + ' ';
      q = raw.slice(raw.lastIndexOf(',') + 1);
    }
    q = q.trim().replace(/^(airport|city):\s*/i, '');
    if (q.length < 2) return;
    var query = 'q=' + encodeURIComponent(q) + '&for=' + encodeURIComponent(mode);
    if (mode === 'freight') {
      var country = field(input.form, input.getAttribute('data-side') + '_country');
      if (country && /^[A-Za-z]{2}$/.test(country.value.trim())) query += '&country=' + encodeURIComponent(country.value.trim());
    }
    var requests = [
      getData('/places/suggest.json?' + query).then(function (d) {
        return d.places || [];
      }),
    ];
    if (mode === 'rate') {
      requests.unshift(
        getData('/pricing/search/location/' + encodeURIComponent(q) + '/city.json').then(function (d) {
          return (d.locations || []).map(function (l) {
            return { kind: 'zone', value: l.value, label: l.label };
          });
        }),
      );
    }
    var mine = ++seq;
    Promise.all(requests).then(function (groups) {
      if (mine !== seq) return; // a later keystroke asked again
      var list = listFor(input);
      var byValue = {};
      list.textContent = '';
      groups.forEach(function (group) {
        group.forEach(function (s) {
          var value = optionValue(mode, s);
          if (!value || byValue[prefix + value]) return;
          byValue[prefix + value] = s;
          var option = document.createElement('option');
          option.value = prefix + value;
          option.label = s.label;
          list.appendChild(option);
        });
      });
      picks[input.name] = { prefix: prefix, byValue: byValue };
    });
  }

  function showNear(input, text) {
    var note = document.querySelector('[data-near-note="' + input.name + '"]');
    if (note) note.textContent = text;
  }

  function picked(input, s, prefix) {
    var mode = input.getAttribute('data-place');
    var form = input.form;
    if (mode === 'filter' && s.kind === 'city') {
      var near = field(form, input.getAttribute('data-near'));
      if (!near) return;
      near.value = s.value;
      showNear(near, s.label);
      input.value = prefix.replace(/,\s*$/, '');
    } else if (mode === 'near') {
      showNear(input, s.label);
    } else if (mode === 'freight') {
      var side = input.getAttribute('data-side');
      var set = function (name, value) {
        var f = field(form, side + '_' + name);
        if (f) f.value = value === undefined || value === null ? '' : String(value);
      };
      if (s.kind === 'city') {
        set('country', s.country);
        set('addr', s.name);
        set('latitude', s.latitude);
        set('longitude', s.longitude);
        input.value = '';
        input.placeholder = input.getAttribute('data-postal-placeholder') || '';
        input.focus();
      } else if (s.kind === 'airport') {
        ['country', 'addr', 'latitude', 'longitude'].forEach(function (n) {
          set(n, '');
        });
      } else if (s.kind === 'postal') {
        set('country', s.country);
      }
    }
  }

  document.addEventListener('input', function (event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches('input[data-place]')) return;
    var known = picks[input.name];
    var chosen = known && known.byValue[input.value];
    if (chosen) {
      picked(input, chosen, known.prefix);
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(function () {
      suggest(input);
    }, 200);
  });

  // ---------------------------------------------------------------------------------------------
  // The folded load search (app.css shows it open at the desk with ::details-content): where the
  // browser cannot, open it on a wide screen so the desk never has to unfold it.
  var fold = document.querySelector('details.search-fold');
  var styled = window.CSS && CSS.supports && CSS.supports('selector(::details-content)');
  if (fold && !styled && window.matchMedia('(min-width: 761px)').matches) fold.open = true;

  // ---------------------------------------------------------------------------------------------
  // Unread notifications (alerts of saved searches) as a count beside the header link. The link's
  // name stays its text, read on into the count: "Notifications 13 unread" (WCAG 2.5.3: the name
  // contains what is seen, so no aria-label); the space and the word are for screen readers only.
  function showCount(link, unread) {
    if (!unread) return;
    var hidden = function (text) {
      var span = document.createElement('span');
      span.className = 'visually-hidden';
      span.textContent = text;
      return span;
    };
    var count = document.createElement('span');
    count.className = 'count';
    count.textContent = unread > 99 ? '99+' : String(unread);
    link.appendChild(hidden(' '));
    link.appendChild(count);
    link.appendChild(hidden(' ' + (link.getAttribute('data-unread-label') || '')));
  }
  var bell = document.querySelector('[data-notifications]');
  if (bell) {
    getData('/notifications/unread.json').then(function (d) {
      showCount(bell, d.unread);
    });
  }
  // Unread messages of the deal room, the same way (GET /messages/unread.json: data.unread.count).
  var letters = document.querySelector('[data-messages]');
  if (letters) {
    getData('/messages/unread.json').then(function (d) {
      showCount(letters, d.unread && d.unread.count);
    });
  }
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
    var s = String(text)
      .trim()
      .replace(/[\s\u00a0\u202f']/g, '');
    if (!s) return null;
    s = s.replace(/^[-+]/, '');
    var comma = s.lastIndexOf(',');
    var dot = s.lastIndexOf('.');
    var out;
    if (comma >= 0 && dot >= 0) {
      var decimal = comma > dot ? ',' : '.';
      out = s
        .split(decimal === ',' ? '.' : ',')
        .join('')
        .replace(decimal, '.');
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
    // A field may say its own words (the bid's amount), else the form's message for the check.
    var msg = function (name) {
      return input.getAttribute('data-msg') || form.getAttribute('data-msg-' + name) || '';
    };
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
      var swap = function (text) {
        return text
          .split('pieces[' + from + ']')
          .join('pieces[' + to + ']')
          .split('pieces-' + from + '-')
          .join('pieces-' + to + '-');
      };
      Array.prototype.forEach.call(copy.querySelectorAll('[name],[id],[for],[aria-describedby],[data-error-for]'), function (el) {
        ['name', 'id', 'for', 'aria-describedby', 'data-error-for'].forEach(function (attr) {
          if (el.hasAttribute(attr)) el.setAttribute(attr, swap(el.getAttribute(attr)));
        });
        if (el.matches('input')) el.value = '';
        if (el.matches('[data-error-for]')) el.textContent = '';
      });
      Array.prototype.forEach.call(copy.querySelectorAll('.invalid'), function (el) {
        el.classList.remove('invalid');
      });
      last.insertAdjacentElement('afterend', copy);
      var firstInput = copy.querySelector('input');
      if (firstInput) firstInput.focus();
    });
  });
})();
