// Progressive enhancement for the portal and the console; every page works without it.
// - On a phone, the navigation strip shows the current page's item.
// - An error summary takes focus, so a screen reader reads it and the keyboard starts there.
// - Forms with data-confirm ask before they are sent (disabling, rotating a secret).
// - A form's submit button is disabled while it is being sent, so a double click sends it once.
// - A secret shown once gets a Copy button.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  // On a phone the navigation is a strip that scrolls sideways: bring the current page's item into view
  // (and again when the window is resized into a phone's width, as a rotated tablet is).
  const current = document.querySelector('.sidenav [aria-current="page"]');
  const revealCurrent = () => {
    const nav = current && current.closest('.sidenav');
    if (!nav || nav.scrollWidth <= nav.clientWidth) return;
    const offset = current.getBoundingClientRect().left - nav.getBoundingClientRect().left;
    nav.scrollLeft += offset - (nav.clientWidth - current.offsetWidth) / 2;
  };
  revealCurrent();
  window.addEventListener('resize', revealCurrent);

  const summary = document.querySelector('[data-autofocus]');
  if (summary) summary.focus();

  for (const form of document.querySelectorAll('form[method="post"]')) {
    form.addEventListener('submit', (event) => {
      const question = form.getAttribute('data-confirm');
      if (question && !window.confirm(question)) {
        event.preventDefault();
        return;
      }
      const button = form.querySelector('button[type="submit"]');
      if (button) setTimeout(() => (button.disabled = true), 0);
    });
  }

  for (const button of document.querySelectorAll('[data-copy]')) {
    const source = document.getElementById(button.getAttribute('data-copy'));
    if (!source || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(source.textContent.trim());
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Select and copy';
      }
    });
  }
});
