// The demo site's frame around each mode: the navigation, the theme and language switcher
// (kept in localStorage), the "how this is embedded" snippet, and re-mounting the page's
// widgets when a setting changes. Nothing here is needed to embed Assist; each page's own
// script under js/ is the part an integrator would write.
(function () {
  'use strict';

  var STORAGE_KEY = 'assist-demo-settings';
  var PAGES = [
    ['index.html', 'Overview'],
    ['chat-bubble.html', 'Chat bubble'],
    ['chat-trigger.html', 'Chat, own button'],
    ['chat-inline.html', 'Chat inline'],
    ['search-modal.html', 'Search modal'],
    ['search-inline.html', 'Search inline'],
    ['headless.html', 'Headless'],
    ['results', 'Server-rendered results'],
    ['signed-visitor.html', 'Signed visitor'],
  ];
  var THEMES = ['auto', 'light', 'dark'];
  // The 13 built-in locales, each named in its own language.
  var LANGUAGES = [
    ['', 'Browser language'],
    ['en', 'English'],
    ['nl', 'Nederlands'],
    ['de', 'Deutsch'],
    ['fr', 'Français'],
    ['es', 'Español'],
    ['it', 'Italiano'],
    ['pt-BR', 'Português (Brasil)'],
    ['zh-Hans', '简体中文'],
    ['zh-Hant', '繁體中文'],
    ['zh-HK', '繁體中文（香港）'],
    ['ja', '日本語'],
    ['ko', '한국어'],
    ['th', 'ไทย'],
  ];

  function readSettings() {
    var stored = {};
    try {
      stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || '{}') || {};
    } catch (error) {
      stored = {};
    }
    var theme = THEMES.indexOf(stored.theme) >= 0 ? stored.theme : 'auto';
    var language = LANGUAGES.some(function (entry) { return entry[0] === stored.language; }) ? stored.language : '';
    return { theme: theme, language: language };
  }

  var settings = readSettings();

  function saveSettings() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
    } catch (error) {
      // Private browsing without storage: the switcher still works for this page view.
    }
  }

  // The widgets take the visitor's browser language first and `default_language` only when
  // the browser's is not one of theirs (spec 8). To show a chosen language whatever this
  // browser prefers, the demo presents it as the browser's preference; a real site only
  // sets `default_language`.
  function applyLanguage() {
    if (!settings.language) {
      delete navigator.languages;
      delete navigator.language;
      return;
    }
    var preferred = [settings.language];
    Object.defineProperty(navigator, 'languages', { configurable: true, get: function () { return preferred; } });
    Object.defineProperty(navigator, 'language', { configurable: true, get: function () { return preferred[0]; } });
  }

  function applyTheme() {
    if (settings.theme === 'auto') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', settings.theme);
  }

  /** The options each page passes on to Assist.chat() or Assist.search(). */
  function widgetSettings() {
    var options = { theme: settings.theme };
    if (settings.language) options.default_language = settings.language;
    return options;
  }

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    (children || []).forEach(function (child) { node.append(child); });
    return node;
  }

  function select(id, label, options, value, onChange) {
    var control = element('select', { id: id });
    options.forEach(function (option) {
      var item = element('option', { value: option[0] }, [option[1]]);
      if (option[0] === value) item.selected = true;
      control.append(item);
    });
    control.addEventListener('change', function () { onChange(control.value); });
    return element('label', { for: id }, [label, control]);
  }

  function renderHeader() {
    var header = document.getElementById('demo-header');
    if (!header) return;
    var current = location.pathname.replace(/^\/demo\/?/, '') || 'index.html';
    var nav = element('nav', { class: 'site-nav', 'aria-label': 'Demo modes' });
    PAGES.forEach(function (page) {
      var link = element('a', { href: '/demo/' + (page[0] === 'index.html' ? '' : page[0]) }, [page[1]]);
      if (page[0] === current) link.setAttribute('aria-current', 'page');
      nav.append(link);
    });
    var switcher = element('div', { class: 'switcher' }, [
      select('demo-theme', 'Theme', THEMES.map(function (theme) { return [theme, theme]; }), settings.theme, function (value) {
        settings.theme = value;
        changed();
      }),
      select('demo-language', 'Language', LANGUAGES, settings.language, function (value) {
        settings.language = value;
        changed();
      }),
    ]);
    header.append(element('a', { class: 'brand', href: '/demo/' }, ['Assist demo']), nav, switcher);
  }

  /** Shows the markup and script this page embeds Assist with, exactly as the page has them. */
  function renderSnippet() {
    var target = document.getElementById('demo-snippet');
    if (!target) return;
    var parts = [];
    document.querySelectorAll('script[src*="/widget/v1/"]').forEach(function (script) {
      parts.push(script.outerHTML);
    });
    document.querySelectorAll('[data-embed]').forEach(function (node) {
      var copy = node.cloneNode(true);
      copy.removeAttribute('data-embed');
      parts.push(copy.outerHTML);
    });
    var script = document.querySelector('script[data-embed-script]');
    var show = function (code) {
      target.textContent = parts.concat(code ? ['<script>\n' + code.trim() + '\n</script>'] : []).join('\n\n');
    };
    if (!script) return show('');
    fetch(script.src)
      .then(function (response) { return response.ok ? response.text() : ''; })
      .then(show, function () { show(''); });
  }

  var mounter = null;
  var mounted = [];

  function destroyAll() {
    mounted.forEach(function (handle) {
      if (handle && typeof handle.destroy === 'function') handle.destroy();
    });
    mounted = [];
  }

  function runMounter() {
    if (!mounter) return;
    Promise.resolve(mounter(widgetSettings())).then(function (handles) {
      mounted = [].concat(handles || []);
    }, function (error) {
      console.error('[demo] mounting failed', error);
    });
  }

  function changed() {
    saveSettings();
    applyTheme();
    applyLanguage();
    destroyAll();
    runMounter();
  }

  applyTheme();
  applyLanguage();

  window.Demo = {
    /**
     * Runs `mount(settings)` now and again whenever the switcher changes; it returns the
     * widget handle(s) to destroy before the next run (or a promise of them).
     */
    mount: function (mount) {
      mounter = mount;
      runMounter();
    },
    /** The switcher's current widget options: `{ theme, default_language? }`. */
    settings: widgetSettings,
  };

  function ready() {
    renderHeader();
    renderSnippet();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
  else ready();
})();
