'use strict';
(function () {
  // This server's page puts the request token in a meta tag, Nextcloud's pages on <head>;
  // Nextcloud's settings section names its own routes on the element that holds the form.
  var meta = document.querySelector('meta[name="requesttoken"]');
  var requestToken = meta ? meta.getAttribute('content') : document.head.getAttribute('data-requesttoken');
  var root = document.getElementById('dus-admin');
  var base = (root && root.getAttribute('data-settings-url')) || '/apps/docs_unified_search/settings';
  var confirmUrl = (root && root.getAttribute('data-confirm-url')) || '/login/confirm';
  var $ = function (id) { return document.getElementById(id); };
  // The page hands over the texts in the administrator's language (admin-page.ts, SCRIPT_TEXTS).
  var textsHolder = document.getElementById('dus-texts');
  var texts = JSON.parse((textsHolder && textsHolder.getAttribute('data-texts')) || '{}');
  function t(key, params) {
    return String(texts[key] || key).replace(/\{(\w+)\}/g, function (whole, name) {
      return params && params[name] !== undefined ? String(params[name]) : whole;
    });
  }

  function call(method, url, body) {
    var headers = { 'requesttoken': requestToken, 'Accept': 'application/json' };
    var init = { method: method, headers: headers, credentials: 'same-origin' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      init.body = new URLSearchParams(body).toString();
    }
    return fetch(url, init).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { status: response.status, data: data };
      });
    });
  }

  function confirmPassword() {
    return new Promise(function (resolve) {
      var dialog = $('dus-confirm');
      var input = $('dus-confirm-password');
      var error = $('dus-confirm-error');
      error.textContent = '';
      input.value = '';
      function finish(ok) {
        $('dus-confirm-form').onsubmit = null;
        $('dus-confirm-cancel').onclick = null;
        dialog.close();
        resolve(ok);
      }
      $('dus-confirm-cancel').onclick = function () { finish(false); };
      $('dus-confirm-form').onsubmit = function (event) {
        event.preventDefault();
        fetch(confirmUrl, {
          method: 'POST', credentials: 'same-origin',
          headers: { 'requesttoken': requestToken, 'Content-Type': 'application/json', 'Accept': 'application/json' },
          body: JSON.stringify({ password: input.value })
        }).then(function (response) {
          if (response.ok) { finish(true); return; }
          error.textContent = response.status === 429 ? t('page.script.too_many') : t('page.script.wrong_password');
        });
      };
      dialog.showModal();
      input.focus();
    });
  }

  /** Calls a route; on a missing password confirmation asks for the password once and retries. */
  function confirmedCall(method, url, body) {
    return call(method, url, body).then(function (result) {
      // This server names the code; Nextcloud's own confirmation check answers with its message.
      if (result.status === 403 && result.data && (result.data.code === 'password_confirmation_required' || result.data.message === 'Password confirmation is required')) {
        return confirmPassword().then(function (ok) {
          return ok ? call(method, url, body) : { status: 0, data: { message: t('page.script.cancelled'), code: 'cancelled' } };
        });
      }
      return result;
    });
  }

  function showError(element, data) {
    var message = (data && data.message) || t('page.script.request_failed');
    element.textContent = message + (data && data.code ? ' (' + data.code + ')' : '');
  }

  function showSettings(s) {
    $('dus-url').value = s.url || '';
    $('dus-token').value = '';
    $('dus-owner').value = s.archiveOwner || '';
    $('dus-owner').placeholder = s.syncAccount || '';
    $('dus-allow-local').checked = !!s.allowLocal;
    $('dus-always-search').checked = !!s.alwaysSearch;
    var state = $('dus-token-state');
    state.className = 'badge' + (s.tokenConfigured && !s.tokenUnreadable ? '' : ' bad');
    state.textContent = s.tokenUnreadable ? t('page.token_unreadable') : s.tokenConfigured ? t('page.token_stored') : t('page.token_none');
    $('dus-token').placeholder = s.tokenConfigured ? t('page.token_keep') : t('page.token_placeholder');
  }

  function loadHistory() {
    call('GET', base + '/diagnostics').then(function (result) {
      var list = $('dus-history');
      list.textContent = '';
      var entries = (result.data && result.data.entries) || [];
      if (result.status !== 200) { var failed = document.createElement('li'); failed.textContent = t('page.script.history_failed'); list.appendChild(failed); return; }
      if (entries.length === 0) { var none = document.createElement('li'); none.textContent = t('page.script.no_problems'); list.appendChild(none); return; }
      entries.forEach(function (entry) {
        var item = document.createElement('li');
        var when = String(entry.at || '').replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
        var status = entry.status ? ' (HTTP ' + entry.status + ')' : '';
        item.textContent = when + ' – ' + String(entry.code) + status + ': ' + String(entry.message || '');
        list.appendChild(item);
      });
    });
  }

  $('dus-settings').addEventListener('submit', function (event) {
    event.preventDefault();
    $('dus-status').textContent = '';
    $('dus-error').textContent = '';
    var body = {
      url: $('dus-url').value,
      token: $('dus-token').value,
      archiveOwner: $('dus-owner').value,
      allowLocal: $('dus-allow-local').checked ? 'true' : 'false',
      alwaysSearch: $('dus-always-search').checked ? 'true' : 'false'
    };
    $('dus-save').disabled = true;
    confirmedCall('POST', base, body).then(function (result) {
      $('dus-save').disabled = false;
      $('dus-token').value = '';
      if (result.status === 200) {
        showSettings(result.data);
        var v = result.data.docsVersion ? ' ' + t('page.versions', { version: result.data.docsVersion, api: result.data.docsApiVersion || '?' }) + '.' : '';
        $('dus-status').textContent = t('page.script.saved') + v;
        loadHistory();
      } else {
        showError($('dus-error'), result.data);
      }
    });
  });

  $('dus-disconnect').addEventListener('click', function () {
    $('dus-status').textContent = '';
    $('dus-error').textContent = '';
    confirmedCall('DELETE', base).then(function (result) {
      if (result.status === 200) {
        showSettings(result.data);
        $('dus-status').textContent = t('page.script.disconnected');
        loadHistory();
      } else {
        showError($('dus-error'), result.data);
      }
    });
  });

  $('dus-clear-history').addEventListener('click', function () {
    call('DELETE', base + '/diagnostics').then(function (result) {
      if (result.status === 200) { $('dus-status').textContent = t('page.script.history_cleared'); loadHistory(); }
      else showError($('dus-error'), result.data);
    });
  });

  // A result table; every cell is text (textContent), never markup.
  function table(labels, rows) {
    var element = document.createElement('table');
    var head = element.createTHead().insertRow();
    labels.forEach(function (label) { var th = document.createElement('th'); th.scope = 'col'; th.textContent = label; head.appendChild(th); });
    var tbody = element.createTBody();
    rows.forEach(function (cells) {
      var row = tbody.insertRow();
      cells.forEach(function (text) { row.insertCell().textContent = text; });
    });
    return element;
  }

  $('dus-try').addEventListener('submit', function (event) {
    event.preventDefault();
    var out = $('dus-try-results');
    out.textContent = '';
    $('dus-try-error').textContent = '';
    call('POST', base + '/try', { term: $('dus-try-term').value, user: $('dus-try-user').value }).then(function (result) {
      if (result.status !== 200) { showError($('dus-try-error'), result.data); return; }
      var docs = result.data.documents || [];
      var summary = document.createElement('p');
      summary.id = 'dus-try-summary';
      summary.textContent = result.data.rejectionMessage || (result.data.found === 0 ? t('cli.search.none') :
        t('cli.search.found', { found: result.data.found, shown: docs.filter(function (d) { return d.shown; }).length, listed: docs.length, range: '', user: result.data.user }));
      out.appendChild(summary);
      if (result.data.note) {
        var note = document.createElement('p');
        note.id = 'dus-try-note';
        note.textContent = result.data.note;
        out.appendChild(note);
      }
      if (docs.length === 0) return;
      out.appendChild(table([t('cli.search.head_id'), t('cli.search.head_title'), t('page.script.head_shown'), t('page.script.head_why_not')], docs.map(function (d) {
        return [String(d.id), d.title, d.shown ? t('page.script.yes') : t('page.script.no'), d.whyNot || ''];
      })));
    });
  });

  $('dus-who').addEventListener('submit', function (event) {
    event.preventDefault();
    var out = $('dus-who-results');
    out.textContent = '';
    $('dus-who-error').textContent = '';
    call('POST', base + '/who', { document: $('dus-who-document').value, includeBlocked: $('dus-who-blocked').checked ? 'true' : 'false' }).then(function (result) {
      if (result.status !== 200) { showError($('dus-who-error'), result.data); return; }
      var accounts = result.data.accounts || [];
      var summary = document.createElement('p');
      summary.id = 'dus-who-summary';
      summary.textContent = result.data.noFile || t('page.script.who_count', { count: accounts.filter(function (a) { return !a.blocked; }).length, id: result.data.document });
      out.appendChild(summary);
      if (accounts.length === 0) return;
      var blocked = accounts.some(function (a) { return a.blocked; });
      out.appendChild(table([t('cli.who.head_account'), t('cli.who.head_path'), t('cli.who.head_through')].concat(blocked ? [t('page.script.head_why_not')] : []), accounts.map(function (a) {
        return [a.account, a.path || '', a.through || ''].concat(blocked ? [a.blocked || ''] : []);
      })));
    });
  });

  loadHistory();
})();
