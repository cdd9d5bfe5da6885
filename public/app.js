// Progressive enhancement only: every page works without this file.
(function () {
  'use strict';

  // ---------------------------------------------------------------------------------------------
  // Places a person can type. Inputs marked data-place="filter|near|freight|rate|lane" get suggestions
  // (countries, postal areas, airports, cities) from GET /places/suggest.json in a <datalist>;
  // each suggestion's value is what that input takes (docs/choices.md, Load search). Picking a
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

  // What a picked option leaves in the field is what a person reads, never a code: a city by its
  // name ("Warschau / Warszawa (PL)"), a postal code with its town ("DE-80331 München"); the page
  // resolves those words on submit (docs/choices.md, Typed places), and a radius field keeps the
  // city's point in its hidden companion (<name>_at) while its name is unchanged.
  function optionValue(mode, s) {
    if (s.kind === 'city' && (mode === 'freight' || mode === 'near')) return s.label;
    if (s.kind === 'postal' && mode === 'freight') return s.country + '-' + s.postal + (s.name ? ' ' + s.name : '');
    return s.value;
  }

  function keepPoint(near, s) {
    var at = field(near.form, near.name + '_at');
    if (at) at.value = s.kind === 'city' ? s.latitude + ',' + s.longitude + ' ' + near.value : '';
  }

  function suggest(input) {
    var mode = input.getAttribute('data-place');
    var raw = input.value;
    var prefix = '';
    var q = raw;
    // The list search and a lane take several places, comma separated: suggest for the last one.
    if ((mode === 'filter' || mode === 'lane') && raw.lastIndexOf(',') >= 0) {
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
      near.value = s.label;
      keepPoint(near, s);
      showNear(near, s.label);
      input.value = prefix.replace(/,\s*$/, '');
    } else if (mode === 'near') {
      keepPoint(input, s);
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
  // Shown again whenever the live board says the count may have changed (below).
  function showCount(link, unread) {
    Array.prototype.forEach.call(link.querySelectorAll('[data-count-part]'), function (old) {
      old.parentNode.removeChild(old);
    });
    if (!unread) return;
    var part = function (className, text) {
      var span = document.createElement('span');
      span.className = className;
      span.setAttribute('data-count-part', '');
      span.textContent = text;
      return span;
    };
    link.appendChild(part('visually-hidden', ' '));
    link.appendChild(part('count', unread > 99 ? '99+' : String(unread)));
    link.appendChild(part('visually-hidden', ' ' + (link.getAttribute('data-unread-label') || '')));
  }
  var bell = document.querySelector('[data-notifications]');
  function countNotifications() {
    if (!bell) return;
    getData('/notifications/unread.json').then(function (d) {
      showCount(bell, d.unread);
    });
  }
  // Unread messages of the deal room, the same way (GET /messages/unread.json: data.unread.count).
  var letters = document.querySelector('[data-messages]');
  function countMessages() {
    if (!letters) return;
    getData('/messages/unread.json').then(function (d) {
      showCount(letters, d.unread && d.unread.count);
    });
  }
  countNotifications();
  countMessages();

  // ---------------------------------------------------------------------------------------------
  // The live board (docs/reference.md#live-board): the page listens to GET /events/stream (its path is the
  // body's data-live, set on logged-in pages) while it is visible, and on an event it concerns:
  // - a list page (data-live-list) reads itself again and puts the rows it does not show yet at
  //   the top, marked new; when the reader has scrolled into the list, the page scrolls by their
  //   height, so the row being read stays where it is; rows already shown are updated in place;
  // - a freight page (data-live-freight) reads itself again and replaces the parts that changed
  //   (data-live-part: status, next step, bids, actions), unless the user is typing in one;
  // - the header's counts are asked again (messages, notifications).
  // Without this script, or without the stream, every page is the same, current at its load.
  var liveUrl = document.body && document.body.getAttribute('data-live');
  var listBox = document.querySelector('[data-live-list]');
  var freightBox = document.querySelector('[data-live-freight]');
  var freightId = freightBox ? Number(freightBox.getAttribute('data-live-freight')) : null;
  var source = null;
  var due = {};
  var flushTimer = null;
  var retryTimer = null;

  function freightOf(body) {
    var d = (body && body.data) || {};
    if (d.route && d.route.id) return d.route.id;
    if (d.bid && d.bid.route) return d.bid.route;
    if (d.message && d.message.freight) return d.message.freight;
    if (d.document && d.document.freight) return d.document.freight;
    // Tracking's events (freight.milestone, freight.late) name the freight by id.
    if (d.route_id) return d.route_id;
    return null;
  }

  function onEvent(event) {
    var body;
    try {
      body = JSON.parse(event.data);
    } catch (_unreadable) {
      return;
    }
    var type = String(body.type || '');
    if (type === 'message.created') due.messages = true;
    // The deal room's parts of the freight page open (its conversations, its documents).
    if ((type === 'message.created' || type === 'document.added') && freightBox && freightOf(body) === freightId) due.freight = true;
    if (type === 'freight.matched' || type === 'freight.invited' || type === 'vehicle.matched') due.notifications = true;
    if (/^(freight|bid|booking)\./.test(type)) {
      if (listBox) due.list = true;
      if (freightBox && freightOf(body) === freightId) due.freight = true;
    }
    // A little later, spread over a moment: a burst of events is one reading, and the readers of a
    // busy market do not all ask at the same instant.
    if (!flushTimer) flushTimer = setTimeout(flush, 100 + Math.floor(Math.random() * 300));
  }

  function flush() {
    flushTimer = null;
    if (document.hidden) return; // read when the page is seen again (visibilitychange)
    var now = due;
    due = {};
    if (now.messages) countMessages();
    if (now.notifications) countNotifications();
    if (now.list) refreshList();
    if (now.freight) refreshFreight();
  }

  function readSelf() {
    return fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (r) {
        return r.ok && !r.redirected ? r.text() : null;
      })
      .then(function (html) {
        return html ? new DOMParser().parseFromString(html, 'text/html') : null;
      })
      .catch(function () {
        return null;
      });
  }

  // What changed, said in a status line that floats over the page (app.css), so that it moves
  // nothing; on a list it is a button to the new rows at the top. A line of text alone goes after
  // a while (it is not in the way meanwhile: clicks go through it).
  var noteTimer = null;
  function say(text, target) {
    var note = document.querySelector('[data-live-note]');
    if (!note) {
      note = document.createElement('div');
      note.className = 'live-note';
      note.setAttribute('role', 'status');
      note.setAttribute('data-live-note', '');
      document.body.appendChild(note);
    }
    note.textContent = '';
    if (target) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'link';
      button.textContent = text;
      button.addEventListener('click', function () {
        target.scrollIntoView();
        note.hidden = true;
      });
      note.appendChild(button);
    } else note.textContent = text;
    note.hidden = false;
    clearTimeout(noteTimer);
    if (!target)
      noteTimer = setTimeout(function () {
        note.hidden = true;
      }, 8000);
  }

  function marked(row, className) {
    row.classList.remove(className);
    // Restarts the highlight's animation (app.css) for a row marked again.
    void row.offsetWidth;
    row.classList.add(className);
  }

  // A row's forms (hide, Book Now) carry a CSRF token that differs on every rendering of the page:
  // a row is changed when anything else in it is.
  function withoutCsrf(html) {
    return html.replace(/name="_csrf" value="[^"]*"/g, 'name="_csrf"');
  }

  // The columns keep their widths once rows arrive: a new row with a longer route would widen its
  // column and re-wrap every row below the reader's eye (the table lays out by its content).
  function keepColumns(table) {
    if (table.getAttribute('data-kept') || getComputedStyle(table).display !== 'table') return;
    var heads = table.querySelectorAll('thead th');
    var widths = Array.prototype.map.call(heads, function (th) {
      return th.getBoundingClientRect().width;
    });
    if (
      !widths.length ||
      widths.some(function (w) {
        return !w;
      })
    )
      return;
    Array.prototype.forEach.call(heads, function (th, i) {
      th.style.width = widths[i] + 'px';
    });
    table.style.width = table.getBoundingClientRect().width + 'px';
    table.style.tableLayout = 'fixed';
    table.setAttribute('data-kept', '');
  }

  // A window of another size lays the table out afresh (the kept widths were for the old one).
  window.addEventListener('resize', function () {
    Array.prototype.forEach.call(document.querySelectorAll('table[data-kept]'), function (table) {
      Array.prototype.forEach.call(table.querySelectorAll('thead th'), function (th) {
        th.style.width = '';
      });
      table.style.width = '';
      table.style.tableLayout = '';
      table.removeAttribute('data-kept');
    });
  });

  function refreshList() {
    readSelf().then(function (doc) {
      var fresh = doc && doc.querySelector('[data-live-list]');
      var body = listBox.querySelector('[data-testid="freight-list"] tbody');
      var freshBody = fresh && fresh.querySelector('[data-testid="freight-list"] tbody');
      if (!body || !freshBody) return;
      var tabs = listBox.querySelector('nav.tabs');
      var freshTabs = fresh.querySelector('nav.tabs');
      if (tabs && freshTabs && tabs.innerHTML !== freshTabs.innerHTML) tabs.innerHTML = freshTabs.innerHTML;
      var known = {};
      Array.prototype.forEach.call(body.querySelectorAll('tr[data-key]'), function (row) {
        known[row.getAttribute('data-key')] = row;
      });
      var added = [];
      Array.prototype.forEach.call(freshBody.querySelectorAll('tr[data-key]'), function (row) {
        var mine = known[row.getAttribute('data-key')];
        if (!mine) added.push(document.importNode(row, true));
        else if (withoutCsrf(mine.innerHTML) !== withoutCsrf(row.innerHTML)) {
          mine.innerHTML = row.innerHTML;
          marked(mine, 'live-changed');
        }
      });
      if (!added.length) return;
      // The row being read: the one across the middle of the window (else the last above it, else
      // the first in view). It stays where it is: the page scrolls by what was put above it (as far
      // as the page can scroll). Rows above it may change height when a new row widens a column,
      // so the row in the middle, not the top one, is kept still.
      var rows = body.querySelectorAll('tr');
      var middle = window.innerHeight / 2;
      var anchor = null;
      for (var i = 0; i < rows.length; i++) {
        var box = rows[i].getBoundingClientRect();
        if (box.bottom <= 0) continue;
        if (box.top > middle && anchor) break;
        anchor = rows[i];
        if (box.bottom >= middle) break;
      }
      var before = anchor ? anchor.getBoundingClientRect().top : 0;
      keepColumns(body.parentNode);
      var empty = body.querySelector('td.empty');
      if (empty) body.removeChild(empty.parentNode);
      var first = body.firstChild;
      added.forEach(function (row) {
        row.classList.add('live-new');
        body.insertBefore(row, first);
      });
      if (anchor && anchor.parentNode) window.scrollBy(0, anchor.getBoundingClientRect().top - before);
      var words = listBox.getAttribute('data-live-new') || '{n}';
      say(words.split('{n}').join(String(body.querySelectorAll('tr.live-new').length)), body.parentNode);
    });
  }

  // A part the user is working in (focus in a field, or a field changed) is left as it is.
  function busy(part) {
    var active = document.activeElement;
    if (active && part.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
    var fields = part.querySelectorAll('input, textarea');
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type !== 'hidden' && f.type !== 'checkbox' && f.type !== 'radio' && f.value !== f.defaultValue) return true;
    }
    return false;
  }

  function refreshFreight() {
    readSelf().then(function (doc) {
      var fresh = doc && doc.querySelector('[data-live-freight]');
      if (!fresh) return;
      var changed = false;
      Array.prototype.forEach.call(fresh.querySelectorAll('[data-live-part]'), function (part) {
        var name = part.getAttribute('data-live-part');
        var mine = freightBox.querySelector('[data-live-part="' + name + '"]');
        if (!mine || mine.outerHTML === part.outerHTML || busy(mine)) return;
        var copy = document.importNode(part, true);
        mine.parentNode.replaceChild(copy, mine);
        marked(copy, 'live-changed');
        changed = true;
      });
      // A conversation that began meanwhile (the owner's page: a company wrote for the first time).
      var room = freightBox.querySelector('[data-testid="deal-messages"]');
      var freshRoom = fresh.querySelector('[data-testid="deal-messages"]');
      if (room && freshRoom) {
        Array.prototype.forEach.call(freshRoom.querySelectorAll('article.conversation[data-company]'), function (article) {
          if (room.querySelector('article.conversation[data-company="' + article.getAttribute('data-company') + '"]')) return;
          var nobody = room.querySelector('[data-no-conversation]');
          if (nobody) nobody.parentNode.removeChild(nobody);
          var copy = document.importNode(article, true);
          room.appendChild(copy);
          marked(copy, 'live-changed');
          changed = true;
        });
      }
      if (changed) {
        say(freightBox.getAttribute('data-live-updated') || '');
        // Reading the page read its conversations: the header's count follows.
        countMessages();
      }
    });
  }

  // ---------------------------------------------------------------------------------------------
  // The deal room's conversation (docs/reference.md#deal-room): a message is sent as JSON (POST
  // /freights/messages/{id}.json, with the page's session and the form's CSRF token) without a
  // reload, and the answer is added to the conversation; a refusal is shown under the field. Any
  // other answer (the session ended, no connection) sends the form as it is, as without this
  // script. Messages to this company arrive through the live board above (message.created), which
  // reads the page's conversation parts again.
  function stamp(text, lang) {
    var m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})/.exec(String(text || ''));
    if (!m) return '';
    return lang === 'deu'
      ? m[3] + '.' + m[2] + '.' + m[1] + ' ' + m[4] + ':' + m[5]
      : m[1] + '-' + m[2] + '-' + m[3] + ' ' + m[4] + ':' + m[5];
  }

  function addMessage(form, message) {
    var article = form.closest('.conversation');
    var box = article && article.querySelector('.message-list');
    if (!box) return;
    var list = box.querySelector('ol.messages');
    if (!list) {
      box.textContent = '';
      list = document.createElement('ol');
      list.className = 'messages';
      box.appendChild(list);
    }
    var item = document.createElement('li');
    item.className = 'message mine';
    item.setAttribute('data-testid', 'message');
    var meta = document.createElement('p');
    meta.className = 'meta';
    var who = document.createElement('strong');
    who.textContent = article.getAttribute('data-you') || '';
    var time = document.createElement('time');
    time.setAttribute('datetime', String(message.created || '').replace(' ', 'T'));
    time.textContent = stamp(message.created, form.getAttribute('data-lang'));
    meta.appendChild(who);
    meta.appendChild(document.createTextNode(' '));
    meta.appendChild(time);
    var text = document.createElement('p');
    text.className = 'text';
    text.textContent = message.text;
    item.appendChild(meta);
    item.appendChild(text);
    list.appendChild(item);
    marked(item, 'live-new');
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form || !form.matches || !form.matches('form[data-message-form]')) return;
    if (!window.fetch || !window.FormData || !window.URLSearchParams) return;
    event.preventDefault();
    if (form.hasAttribute('data-sending')) return;
    var field = form.querySelector('textarea[name="text"]');
    var error = field && document.querySelector('[data-error-for="' + field.id + '"]');
    var button = form.querySelector('button[type="submit"]');
    var problem = function (text) {
      if (error) error.textContent = text;
      var box = field && field.closest('.field');
      if (box) box.classList.toggle('invalid', !!text);
      if (text && field) field.setAttribute('aria-invalid', 'true');
      else if (field) field.removeAttribute('aria-invalid');
    };
    var done = function () {
      form.removeAttribute('data-sending');
      if (button) button.disabled = false;
    };
    form.setAttribute('data-sending', '');
    if (button) button.disabled = true;
    fetch(form.getAttribute('action') + '.json', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(new FormData(form)).toString(),
    })
      .then(function (r) {
        return r.status === 200 ? r.json() : null;
      })
      .then(function (body) {
        done();
        if (!body || (body.status !== 'success' && body.status !== 'error')) return form.submit();
        if (body.status === 'error') {
          problem(body.message || '');
          if (field) field.focus();
          return;
        }
        problem('');
        if (field) field.value = '';
        addMessage(form, body.data.message);
        say(form.getAttribute('data-sent') || '');
      })
      .catch(function () {
        done();
        form.submit();
      });
  });

  function connect() {
    if (source || !liveUrl || !window.EventSource || document.hidden) return;
    source = new EventSource(liveUrl);
    source.onmessage = onEvent;
    // Whether the page listens, for whoever wants to know (the tests do).
    source.onopen = function () {
      document.body.setAttribute('data-live-state', 'open');
    };
    source.onerror = function () {
      document.body.setAttribute('data-live-state', 'connecting');
      // The browser reconnects by itself (with Last-Event-ID); a refusal (401, 429) ends the
      // stream for good: try again later.
      if (source && source.readyState === 2) {
        source = null;
        clearTimeout(retryTimer);
        retryTimer = setTimeout(connect, 30000);
      }
    };
  }

  function disconnect() {
    if (source) source.close();
    source = null;
    document.body.setAttribute('data-live-state', 'closed');
  }

  if (liveUrl && window.EventSource && window.fetch && window.DOMParser) {
    // Only a page someone sees holds a stream (a browser allows few connections per server).
    document.addEventListener('visibilitychange', function () {
      if (document.hidden) return disconnect();
      // What happened meanwhile: read once, then listen again.
      due = { messages: true, notifications: true, list: !!listBox, freight: !!freightBox };
      flush();
      connect();
    });
    connect();
    // Tracking (docs/reference.md#tracking): positions have no event of their own (a batch a minute from every
    // truck would flood the streams), so while the freight is underway its part is read again every
    // 30 seconds, when the page is seen; milestones and lateness arrive at once above.
    if (freightBox && freightBox.querySelector('[data-tracking-underway]')) {
      setInterval(function () {
        if (document.hidden) return;
        due.freight = true;
        flush();
      }, 30000);
    }
  }
})();

// -------------------------------------------------------------------------------------------------
// The driver's page (docs/reference.md#tracking, section[data-driver]): while it is open and sharing, the
// phone's position is read (Geolocation API) at once and then every minute, kept in the page's
// storage, and sent to the link's address (up to 1,000 a call); offline they wait and go when the
// connection is back. A 404 means the link ended (revoked, expired, delivered): sharing stops.
(function () {
  var box = document.querySelector('[data-driver]');
  if (!box) return;
  var url = box.getAttribute('data-driver');
  var texts = {};
  try {
    texts = JSON.parse(box.getAttribute('data-driver-texts') || '{}');
  } catch (_unreadable) {}
  var state = box.querySelector('[data-testid="driver-state"]');
  var start = box.querySelector('[data-driver-start]');
  var stop = box.querySelector('[data-driver-stop]');
  var key = 'fx-driver:' + url;
  var timer = null;
  var sending = false;
  var ended = false;

  function show(name, vars) {
    var text = texts[name] || '';
    for (var k in vars || {}) text = text.split('{' + k + '}').join(String(vars[k]));
    state.textContent = text;
    box.setAttribute('data-driver-state', name);
  }
  function queued() {
    try {
      return JSON.parse(localStorage.getItem(key) || '[]');
    } catch (_unreadable) {
      return [];
    }
  }
  function keep(list) {
    try {
      localStorage.setItem(key, JSON.stringify(list.slice(-5000)));
    } catch (_full) {}
  }
  function send() {
    var list = queued();
    if (sending || ended || !list.length) return;
    sending = true;
    var batch = list.slice(0, 1000);
    fetch(url, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ positions: batch }),
    })
      .then(function (r) {
        sending = false;
        if (r.status === 404) return finish();
        if (!r.ok) throw new Error('not sent');
        return r.json().then(function (body) {
          // Sent, or refused whole (a bad reading): either way these leave the queue.
          keep(queued().slice(batch.length));
          if (body.status === 'success') show('sharing', { time: new Date().toLocaleTimeString() });
          if (queued().length) send();
        });
      })
      .catch(function () {
        sending = false;
        show('queued', { count: queued().length });
      });
  }
  function finish() {
    ended = true;
    clearInterval(timer);
    timer = null;
    localStorage.removeItem(key);
    start.hidden = true;
    stop.hidden = true;
    show('ended');
  }
  function read() {
    navigator.geolocation.getCurrentPosition(
      function (p) {
        var speed = p.coords.speed;
        var list = queued();
        list.push({
          latitude: Math.round(p.coords.latitude * 1e6) / 1e6,
          longitude: Math.round(p.coords.longitude * 1e6) / 1e6,
          at: new Date(p.timestamp || Date.now()).toISOString(),
          speed: typeof speed === 'number' && Number.isFinite(speed) && speed >= 0 ? Math.min(300, Math.round(speed * 36) / 10) : null,
        });
        keep(list);
        if (navigator.onLine === false) show('queued', { count: list.length });
        send();
      },
      function (err) {
        if (err && err.code === 1) {
          show('denied');
          halt();
        }
      },
      { enableHighAccuracy: true, maximumAge: 0, timeout: 50000 },
    );
  }
  function halt() {
    clearInterval(timer);
    timer = null;
    start.hidden = false;
    stop.hidden = true;
  }
  if (!navigator.geolocation) {
    show('unsupported');
    start.disabled = true;
    return;
  }
  start.addEventListener('click', function () {
    if (ended) return;
    show('asking');
    start.hidden = true;
    stop.hidden = false;
    read();
    clearInterval(timer);
    timer = setInterval(read, 60000);
  });
  stop.addEventListener('click', function () {
    halt();
    show('idle');
  });
  window.addEventListener('online', send);
  // Positions left from before (the page closed while offline) go now.
  send();
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

  // ---------------------------------------------------------------------------------------------
  // The consignee's signature (e-CMR, docs/reference.md#ecmr) on the driver's phone: a form marked
  // data-offline-sign="<json url>" is sent by fetch; while there is no connection (fetch fails,
  // or the phone says it is offline) the fields are kept in localStorage under the link's address
  // and sent when the phone is online again, also after the page was reloaded. A refusal from the
  // server is shown under the form; success reloads the page, which then shows the signed note.
  Array.prototype.forEach.call(document.querySelectorAll('form[data-offline-sign]'), function (form) {
    var url = form.getAttribute('data-offline-sign');
    var key = 'fx-cmr-sign:' + url;
    var state = form.querySelector('.offline-state');
    var sending = false;
    function tell(text) {
      if (state) state.textContent = text;
    }
    function stored() {
      try {
        return JSON.parse(window.localStorage.getItem(key) || 'null');
      } catch (_e) {
        return null;
      }
    }
    function keep(fields) {
      try {
        window.localStorage.setItem(key, JSON.stringify(fields));
      } catch (_e) {
        // private mode: kept in the page only
      }
    }
    function forget() {
      try {
        window.localStorage.removeItem(key);
      } catch (_e) {
        // nothing kept
      }
    }
    function send(fields) {
      if (sending) return;
      if (navigator.onLine === false) {
        tell(form.getAttribute('data-saved'));
        return;
      }
      sending = true;
      tell(form.getAttribute('data-sending'));
      fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fields), credentials: 'omit' })
        .then(function (res) {
          return res.json().then(function (body) {
            sending = false;
            forget();
            if (res.ok && body && body.status === 'success') signed(body.data.cmr);
            else tell((body && body.message) || String(res.status));
          });
        })
        .catch(function () {
          sending = false;
          tell(form.getAttribute('data-saved'));
        });
    }
    // Signed: the link ended with the delivery, so the page is not loaded again; it shows the note as signed.
    function signed(cmr) {
      var done = document.createElement('p');
      done.className = 'flash ok';
      done.setAttribute('data-testid', 'cmr-consignee-done');
      done.textContent = form.getAttribute('data-done');
      form.parentNode.replaceChild(done, form);
      var status = document.querySelector('[data-testid="cmr-status"]');
      if (status) status.textContent = form.getAttribute('data-delivered');
      var head = document.querySelector('[data-testid="cmr-head"]');
      if (head && cmr) head.textContent = cmr.hash;
      var list = document.querySelector('.cmr-signatures');
      var last = cmr && cmr.signatures && cmr.signatures[cmr.signatures.length - 1];
      if (list && last) {
        var item = document.createElement('li');
        item.textContent = last.name + ', ' + last.at + (last.reservations ? ' · ' + last.reservations : '') + ' · ' + last.hash;
        list.appendChild(item);
      }
    }
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var fields = { name: form.elements.name.value, reservations: form.elements.reservations.value };
      keep(fields);
      send(fields);
    });
    function retry() {
      var fields = stored();
      if (fields) send(fields);
    }
    window.addEventListener('online', retry);
    // Phones do not always say when they are back: try again every few seconds while one is kept.
    window.setInterval(function () {
      if (navigator.onLine !== false) retry();
    }, 4000);
    var waiting = stored();
    if (waiting) {
      form.elements.name.value = waiting.name || '';
      form.elements.reservations.value = waiting.reservations || '';
      send(waiting);
    }
  });
})();

// -----------------------------------------------------------------------------------------------
// Lane tenders (docs/reference.md#tenders). The new tender's form: a CSV file of lanes is read in the
// browser, with its progress, into the form's lanes text (the server reads and checks it; without
// this script the lanes are pasted). The evaluation page: the total a month of the chosen primary
// carriers (rank 1: price × the lane's loads), added up as ranks are chosen.
(function () {
  'use strict';
  var form = document.querySelector('form[data-tender-csv]');
  if (form) {
    var file = form.querySelector('[data-csv-file]');
    var text = form.querySelector('[data-csv-text]');
    var state = form.querySelector('[data-csv-state]');
    if (file && text && window.FileReader) {
      file.addEventListener('change', function () {
        var chosen = file.files && file.files[0];
        if (!chosen) return;
        var reader = new FileReader();
        reader.onprogress = function (event) {
          if (state && event.lengthComputable)
            state.textContent = (state.getAttribute('data-reading') || '') + ' ' + Math.round((event.loaded / event.total) * 100) + ' %';
        };
        reader.onload = function () {
          text.value = String(reader.result || '');
          var lines = text.value.split(/\r\n|\r|\n/).filter(function (l) {
            return l.trim() !== '';
          }).length;
          if (state) state.textContent = (state.getAttribute('data-read') || '').replace('{count}', String(Math.max(lines - 1, 0)));
        };
        reader.readAsText(chosen);
      });
    }
  }
  var award = document.querySelector('form[data-award-total]');
  if (award) {
    var out = document.querySelector('[data-testid="award-total"]');
    var currency = award.getAttribute('data-currency') || 'EUR';
    var locale = award.getAttribute('data-lang') === 'deu' ? 'de-DE' : 'en-GB';
    var sum = function () {
      var total = 0;
      award.querySelectorAll('input[data-price]').forEach(function (s) {
        if (s.value === '1') total += Number(s.getAttribute('data-price')) * Number(s.getAttribute('data-loads'));
      });
      if (out) out.textContent = new Intl.NumberFormat(locale, { style: 'currency', currency: currency }).format(total);
    };
    award.addEventListener('change', sum);
    award.addEventListener('input', sum);
    sum();
  }
})();
