// The hosted payment page's script: the shared card form (card-form.js) tokenises the card with the
// gateway; this sends PVS the token to pay with, and shows what came of it: paid, a decline another card
// may fix (the form stays, emptied of the card), or a decline that closed the payment.
(function () {
  'use strict';
  function field(id) {
    return document.getElementById(id);
  }

  /** Replaces the form with one of the outcome panels and moves focus to its heading. */
  function showPanel(name, title) {
    field('form-panel').hidden = true;
    field(name + '-panel').hidden = false;
    field(name + '-title').focus();
    document.title = title;
  }

  var form = window.pvsCardForm({
    sendingText: 'Paying…',
    send: function (token) {
      return form.postJson(form.submitUrl, { paymentToken: token }).then(function (res) {
        if (res.status === 200 && res.body.status === 'SUCCEEDED') return showPanel('paid', 'Payment made');
        // Paid, cancelled or closed meanwhile (another tab, the business): the page, loaded again, says which.
        if (res.status === 410) return window.location.reload();
        if (res.body.code === 'CARD_DECLINED') {
          // The gateway's words for the card holder; the decline code is for the partner, not for them.
          var declined = res.body.detail || 'Your card was declined.';
          if (res.body.paymentStatus === 'FAILED') {
            field('failed-reason').textContent = declined;
            return showPanel('failed', 'Payment not made');
          }
          form.clearCard();
          return { problems: [{ message: declined + ' Try another card.' }] };
        }
        if (res.status === 503) return { problems: [{ message: 'The payment service did not answer. Try again in a moment: your card will not be charged twice.' }] };
        return { problems: [{ message: res.body.detail ? res.body.detail.replace(/\.?$/, '.') : 'The payment could not be made. Try again.' }] };
      });
    },
  });
})();
