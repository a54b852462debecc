// The card form the hosted pages share (card-form.ts renders it). The card details go to the gateway's
// tokenisation endpoint (the sandbox gateway, or Stripe.js in production); only the token the gateway
// answers is handed to the page's own script (card-page.js, payment-page.js), which sends it to PVS.
//
// window.pvsCardForm(options) wires the form and answers the helpers a page script needs, or null when
// the page has no form. options:
//   sendingText   what the status line says while PVS is asked
//   send(token)   sends the token to PVS; a promise of { problems: [{ message, field? }] } to show, or
//                 of nothing when the page has dealt with the answer itself
(function () {
  'use strict';

  function field(name) {
    return document.getElementById(name);
  }

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

  window.pvsCardForm = function (options) {
    var form = field('card-form');
    if (!form) return null;
    var errors = field('errors');
    var status = field('status');
    var submit = field('submit');
    var stripe = null;
    var cardElement = null;

    if (form.dataset.gateway === 'stripe' && window.Stripe) {
      stripe = window.Stripe(form.dataset.publishableKey);
      cardElement = stripe.elements().create('card', { hidePostalCode: true });
      cardElement.mount('#card-element');
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

    /** Empties the card's details (not the name), for another card after a decline. */
    function clearCard() {
      if (cardElement) cardElement.clear();
      else
        ['number', 'expiry', 'cvc'].forEach(function (id) {
          field(id).value = '';
        });
    }

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      clearErrors();
      busy(true, 'Checking your card…');
      tokenise()
        .then(function (tokenised) {
          if (tokenised.problems) return tokenised;
          busy(true, options.sendingText);
          return options.send(tokenised.token);
        })
        .then(
          function (outcome) {
            busy(false);
            if (outcome && outcome.problems) showErrors(outcome.problems);
          },
          function () {
            busy(false);
            showErrors([{ message: 'We could not reach the payment service. Check your connection and try again.' }]);
          },
        );
    });

    return { submitUrl: form.dataset.submitUrl, postJson: postJson, clearCard: clearCard };
  };
})();
