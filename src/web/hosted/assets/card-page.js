// The hosted card page's script. The card details go to the gateway's tokenisation endpoint (the sandbox
// gateway, or Stripe.js in production); only the token the gateway answers is sent to PVS.
(function () {
  'use strict';
  var form = document.getElementById('card-form');
  if (!form) return;
  var errors = document.getElementById('errors');
  var status = document.getElementById('status');
  var submit = document.getElementById('submit');
  var gateway = form.dataset.gateway;
  var stripe = null;
  var cardElement = null;

  if (gateway === 'stripe' && window.Stripe) {
    stripe = window.Stripe(form.dataset.publishableKey);
    cardElement = stripe.elements().create('card', { hidePostalCode: true });
    cardElement.mount('#card-element');
  }

  function field(name) {
    return document.getElementById(name);
  }

  function clearErrors() {
    errors.hidden = true;
    errors.textContent = '';
    Array.prototype.forEach.call(form.querySelectorAll('.field-error'), function (p) {
      p.hidden = true;
      p.textContent = '';
    });
    Array.prototype.forEach.call(form.querySelectorAll('[aria-invalid]'), function (input) {
      input.removeAttribute('aria-invalid');
    });
  }

  // Errors are shown twice: beside the field (linked by aria-describedby) and in a summary that is
  // announced (role=alert) and focused, so keyboard and screen-reader users land on it.
  function showErrors(list) {
    var summary = document.createElement('p');
    summary.textContent = list.length === 1 ? list[0].message : 'Please correct the following:';
    errors.appendChild(summary);
    if (list.length > 1) {
      var ul = document.createElement('ul');
      list.forEach(function (e) {
        var li = document.createElement('li');
        li.textContent = e.message;
        ul.appendChild(li);
      });
      errors.appendChild(ul);
    }
    list.forEach(function (e) {
      if (!e.field) return;
      var input = field(e.field);
      var note = field(e.field + '-error');
      if (input) input.setAttribute('aria-invalid', 'true');
      if (note) {
        note.textContent = e.message;
        note.hidden = false;
      }
    });
    errors.hidden = false;
    errors.focus();
  }

  function busy(on, text) {
    submit.disabled = on;
    status.textContent = text || '';
  }

  function readCard() {
    var problems = [];
    var number = field('number').value.replace(/[\s-]/g, '');
    var expiry = field('expiry').value.replace(/\s/g, '');
    var cvc = field('cvc').value.trim();
    var match = /^(\d{1,2})\/?(\d{2}|\d{4})$/.exec(expiry);
    if (!/^\d{12,19}$/.test(number)) problems.push({ field: 'number', message: 'Enter the card number, 12 to 19 digits.' });
    if (!match || Number(match[1]) < 1 || Number(match[1]) > 12) problems.push({ field: 'expiry', message: 'Enter the expiry date as MM/YY, for example 04/29.' });
    if (!/^\d{3,4}$/.test(cvc)) problems.push({ field: 'cvc', message: 'Enter the 3 or 4 digit security code from the card.' });
    if (problems.length) return { problems: problems };
    var year = Number(match[2]);
    return { card: { number: number, expMonth: Number(match[1]), expYear: year < 100 ? 2000 + year : year, cvc: cvc, name: field('name').value.trim() || undefined } };
  }

  var gatewayFields = { number: 'number', expMonth: 'expiry', expYear: 'expiry', cvc: 'cvc' };

  function postJson(url, body) {
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'omit' }).then(function (res) {
      return res.json().then(
        function (json) {
          return { status: res.status, body: json };
        },
        function () {
          return { status: res.status, body: {} };
        },
      );
    });
  }

  function tokenise() {
    if (stripe) {
      return stripe.createPaymentMethod({ type: 'card', card: cardElement, billing_details: { name: field('name').value.trim() || undefined } }).then(function (result) {
        if (result.error) return { problems: [{ field: 'card-element', message: result.error.message }] };
        return { token: result.paymentMethod.id };
      });
    }
    var read = readCard();
    if (read.problems) return Promise.resolve(read);
    return postJson(form.dataset.tokensUrl, read.card).then(function (res) {
      if (res.status === 200 && res.body.token) return { token: res.body.token };
      var e = res.body.error || {};
      return { problems: [{ field: gatewayFields[e.param], message: e.message || 'The card could not be read. Check the details and try again.' }] };
    });
  }

  function showSaved(card) {
    field('saved-card').textContent = card.brand.charAt(0).toUpperCase() + card.brand.slice(1) + ' card ending ' + card.last4;
    field('form-panel').hidden = true;
    field('saved-panel').hidden = false;
    field('saved-title').focus();
    document.title = 'Card saved';
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    clearErrors();
    busy(true, 'Checking your card…');
    tokenise()
      .then(function (tokenised) {
        if (tokenised.problems) return tokenised;
        busy(true, 'Saving your card…');
        return postJson(form.dataset.saveUrl, { paymentToken: tokenised.token }).then(function (res) {
          if (res.status === 200) return { saved: res.body };
          if (res.status === 410) {
            window.location.reload();
            return { done: true };
          }
          // The gateway's words for the card holder; the decline code is for the partner, not for them.
          var message = res.body.code === 'CARD_DECLINED' ? (res.body.detail || 'Your card was declined.') + ' Try another card.' : res.body.detail || 'The card could not be saved. Try again.';
          return { problems: [{ message: message }] };
        });
      })
      .then(
        function (outcome) {
          busy(false);
          if (outcome.saved) showSaved(outcome.saved.card);
          else if (outcome.problems) showErrors(outcome.problems);
        },
        function () {
          busy(false);
          showErrors([{ message: 'We could not reach the payment service. Check your connection and try again.' }]);
        },
      );
  });
})();
