// The reference page is whole without a script: Redoc rendered it on the server. This makes it live
// (the side menu, the tabs of samples, the schemas that open) at the reader's first touch, key or focus,
// so that a reader who only reads downloads nothing more: the client is 400 KB compressed. A click made
// while it loads is made again once the page is live.
(function () {
  'use strict';
  // On a phone the strip of sections scrolls sideways: the current one is brought into it.
  var current = document.querySelector('.reference-sections [aria-current="page"]');
  if (current) current.scrollIntoView({ block: 'nearest', inline: 'center' });

  var container = document.getElementById('redoc');
  if (!container) return;
  var triggers = ['pointerdown', 'touchstart', 'keydown', 'focusin'];
  var started = false;
  var clicked = null;

  function remember(event) {
    var target = event.target && event.target.closest ? event.target.closest('li[data-item-id], button, [role="tab"], [role="button"]') : null;
    if (target) clicked = target;
  }

  function start() {
    if (started) return;
    started = true;
    triggers.forEach(function (type) {
      document.removeEventListener(type, start, true);
    });
    document.addEventListener('click', remember, true);
    var state = fetch(container.getAttribute('data-state'), { credentials: 'same-origin' }).then(function (response) {
      if (!response.ok) throw new Error('the reference state answered ' + response.status);
      return response.json();
    });
    Promise.all([import(container.getAttribute('data-client')), state])
      .then(function (loaded) {
        return loaded[0].hydrate(container, loaded[1]);
      })
      .then(function () {
        document.removeEventListener('click', remember, true);
        if (clicked && clicked.isConnected) clicked.click();
      })
      .catch(function () {
        // The page stays as it is: readable, with its links. Another touch tries again.
        document.removeEventListener('click', remember, true);
        started = false;
        listen();
      });
  }

  function listen() {
    triggers.forEach(function (type) {
      document.addEventListener(type, start, { capture: true, passive: true });
    });
  }
  listen();
})();
