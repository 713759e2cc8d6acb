/**
 * The reader's theme, an inline head script on every page (layouts/BaseLayout.astro): before first
 * paint, a stored choice (localStorage "theme": light | dark; none = the system's) sets
 * <html data-theme>, which the stylesheet reads beside prefers-color-scheme. It also runs the
 * header's theme menu (components/ThemeSwitch.astro) by delegation, the one script the choice needs.
 * Static text: every page carries the same bytes.
 */
export const THEME_SCRIPT = `
      (function () {
        var h = document.documentElement;
        var get = function () { try { var t = localStorage.getItem('theme'); return t === 'light' || t === 'dark' ? t : 'system'; } catch (e) { return 'system'; } };
        var apply = function (t) {
          if (t === 'system') h.removeAttribute('data-theme'); else h.setAttribute('data-theme', t);
          var b = document.querySelectorAll('[data-theme-choice]');
          for (var i = 0; i < b.length; i++) b[i].setAttribute('aria-pressed', String(b[i].getAttribute('data-theme-choice') === t));
        };
        h.setAttribute('data-scripted', '');
        apply(get());
        document.addEventListener('DOMContentLoaded', function () { apply(get()); });
        var menu = function (open, focus) {
          var toggle = document.querySelector('[data-theme-toggle]');
          var panel = toggle && document.getElementById(toggle.getAttribute('aria-controls'));
          if (!panel || open === (toggle.getAttribute('aria-expanded') === 'true')) return;
          // The stylesheet shows the menu while the toggle is expanded (in the phone menu, always).
          toggle.setAttribute('aria-expanded', String(open));
          if (focus) (open ? panel.querySelector('[aria-pressed="true"]') : toggle).focus();
        };
        document.addEventListener('click', function (e) {
          var choice = e.target.closest && e.target.closest('[data-theme-choice]');
          if (choice) {
            var t = choice.getAttribute('data-theme-choice');
            try { if (t === 'system') localStorage.removeItem('theme'); else localStorage.setItem('theme', t); } catch (x) {}
            apply(t);
            return menu(false, true);
          }
          var toggle = e.target.closest && e.target.closest('[data-theme-toggle]');
          if (toggle) return menu(toggle.getAttribute('aria-expanded') !== 'true', e.detail === 0);
          if (!(e.target.closest && e.target.closest('[data-theme-menu]'))) menu(false, false);
        });
        document.addEventListener('keydown', function (e) {
          if (e.key === 'Escape' && document.activeElement && document.activeElement.closest('[data-theme-switch]')) menu(false, true);
        });
      })();
    `;
