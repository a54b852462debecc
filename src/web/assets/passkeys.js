// Passkeys on the second-factor, enrolment and account pages (web/passkey-pages.ts). A passkey form
// carries the options PVS made for it (data-passkey-options, with the challenge the session keeps);
// sending it asks the browser for the passkey (SimpleWebAuthnBrowser, /web/assets/webauthn.js), puts the
// browser's answer in the form's `response` field and sends the form as usual: PVS checks it and
// answers with a page. Passkeys need a script, so their parts of the page stay hidden without one, or in
// a browser without WebAuthn; the authenticator app and the recovery codes work either way.
'use strict';

document.addEventListener('DOMContentLoaded', () => {
  const webauthn = window.SimpleWebAuthnBrowser;
  if (!webauthn || !webauthn.browserSupportsWebAuthn()) return;
  for (const part of document.querySelectorAll('[data-passkey-part]')) part.hidden = false;

  for (const form of document.querySelectorAll('form[data-passkey]')) {
    const message = form.querySelector('[data-passkey-message]');
    const button = form.querySelector('button[type="submit"]');
    const say = (text) => {
      if (message) message.textContent = text;
    };
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      say('');
      const optionsJSON = JSON.parse(form.getAttribute('data-passkey-options'));
      try {
        const answer =
          form.getAttribute('data-passkey') === 'register'
            ? await webauthn.startRegistration({ optionsJSON })
            : await webauthn.startAuthentication({ optionsJSON });
        form.querySelector('input[name="response"]').value = JSON.stringify(answer);
        form.submit();
      } catch (error) {
        if (button) button.disabled = false;
        const name = error && (error.name || error.code);
        say(
          name === 'NotAllowedError' || name === 'ERROR_CEREMONY_ABORTED'
            ? 'No passkey was used: it was cancelled, or took too long. Try again.'
            : name === 'InvalidStateError' || name === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'
              ? 'This passkey is set up for your account already.'
              : 'Your browser could not use a passkey here. Try again, or use another way below.',
        );
      }
    });
  }
});
