// The hosted card page's script: the shared card form (card-form.js) tokenises the card with the
// gateway; this sends PVS the token to save, and shows the card saved.
(function () {
  'use strict';
  function field(id) {
    return document.getElementById(id);
  }

  function showSaved(card) {
    field('saved-card').textContent = card.brand.charAt(0).toUpperCase() + card.brand.slice(1) + ' card ending ' + card.last4;
    field('form-panel').hidden = true;
    field('saved-panel').hidden = false;
    field('saved-title').focus();
    document.title = 'Card saved';
  }

  var form = window.pvsCardForm({
    sendingText: 'Saving your card…',
    send: function (token) {
      return form.postJson(form.submitUrl, { paymentToken: token }).then(function (res) {
        if (res.status === 200) return showSaved(res.body.card);
        // The link was spent, replaced or has expired meanwhile: the page, loaded again, says which.
        if (res.status === 410) return window.location.reload();
        // The gateway's words for the card holder; the decline code is for the partner, not for them.
        var message = res.body.code === 'CARD_DECLINED' ? (res.body.detail || 'Your card was declined.') + ' Try another card.' : res.body.detail || 'The card could not be saved. Try again.';
        return { problems: [{ message: message }] };
      });
    },
  });
})();
